"""Schema code: migrations, definitions, the column dictionary, stored tables, SQL files and their header, the names users ask for."""
