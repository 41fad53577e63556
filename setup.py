"""Build hook: ship the repository's top-level schema/ inside the installed package as warehouse/schema/.

Everything else about the package is declared in pyproject.toml. schema/ stays a top-level folder of
the repository (migrations, definitions, the column dictionary are not Python), and
``warehouse.schema.folder.schema_dir()`` finds the copy an installed wheel carries.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_schema(build_py):  # noqa: N801 (setuptools command naming)
    """build_py, plus schema/ copied to <build>/warehouse/schema/ (into the wheel, not the checkout)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads schema/ from the checkout itself
            return
        target = Path(self.build_lib) / "warehouse" / "schema"
        shutil.copytree(HERE / "schema", target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": build_py_with_schema})
