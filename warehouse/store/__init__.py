"""Where the warehouse lives: connections (migrated when opened for writing), the sandbox, publishing, the lake, raw payloads."""
