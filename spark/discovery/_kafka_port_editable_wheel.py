"""setuptools' `editable_wheel` command with the path entry through which PySpark discovers `kafka-port` (issue 14).

PySpark registers the Python data sources it finds by listing the top-level modules on sys.path
(`pkgutil.iter_modules`) and importing those named `pyspark_*`. A regular install puts `pyspark_kafka_port` in
site-packages, where that listing sees it. An editable install (`pip install -e .`) of this project cannot: its
packages come from several source folders (core/, clients/, spark/), so setuptools serves them through an import
finder, which imports `pyspark_kafka_port` when asked but lists nothing. This command adds to the editable wheel a
`.pth` file naming spark/discovery, the folder of `pyspark_kafka_port`, so that the listing finds it.

setup.cfg names it as the `editable_wheel` command; it is build code, not installed (a wheel has only
`pyspark_kafka_port` from this folder). `_select_strategy` is setuptools' own (64 and later) and not a public hook:
were it gone, the install would fail here rather than install a data source PySpark cannot find.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from setuptools.command.editable_wheel import editable_wheel

PTH_FILE = "kafka_port_spark_discovery.pth"


class _WithDiscoveryPath:
    """The strategy setuptools chose (it writes the editable wheel's finder), plus our .pth file."""

    def __init__(self, strategy: Any, path: Path) -> None:
        self._strategy = strategy
        self._path = path

    def __call__(self, wheel: Any, files: list[str], mapping: Any) -> None:
        self._strategy(wheel, files, mapping)
        wheel.writestr(PTH_FILE, f"{self._path}\n".encode())

    def __enter__(self) -> _WithDiscoveryPath:
        self._strategy.__enter__()
        return self

    def __exit__(self, *exc_info: Any) -> Any:
        return self._strategy.__exit__(*exc_info)


class EditableWheel(editable_wheel):
    def _select_strategy(self, *args: Any, **kwargs: Any) -> Any:
        strategy = super()._select_strategy(*args, **kwargs)
        return _WithDiscoveryPath(strategy, Path(self.project_dir, "spark", "discovery").resolve())
