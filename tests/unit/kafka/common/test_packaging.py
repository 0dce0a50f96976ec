"""setup.cfg's package list: a non-editable install ships exactly the folders it names, so it must name them all."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def _options() -> tuple[dict[str, str], list[str]]:
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg")
    options = parser["options"]
    package_dir = {}
    for line in options["package_dir"].strip().splitlines():
        name, folder = line.split("=")
        package_dir[name.strip()] = folder.strip()
    return package_dir, options["packages"].split()


def _packages_on_disk(package_dir: dict[str, str]) -> set[str]:
    """Every folder with Python modules under a package_dir root, named as it is imported."""
    found: set[str] = set()
    for name, folder in package_dir.items():
        base = ROOT / folder
        for path in [base, *base.rglob("*")]:
            relative = path.relative_to(base)
            if path.is_dir() and "__pycache__" not in relative.parts and any(path.glob("*.py")):
                found.add(".".join([name, *relative.parts]))
    return found


def test_package_dir_folders_exist() -> None:
    """Each package_dir entry points at a folder of the repository."""
    package_dir, _ = _options()
    assert package_dir, "setup.cfg has no package_dir"
    missing = [folder for folder in package_dir.values() if not (ROOT / folder).is_dir()]
    assert missing == []


def test_packages_name_every_package_under_core_and_clients() -> None:
    """The packages list names each folder of Python modules under core/ and clients/, and nothing else."""
    package_dir, packages = _options()
    on_disk = _packages_on_disk(package_dir)
    assert "kafka.common.protocol" in on_disk and "kafka.server" in on_disk
    assert sorted(on_disk - set(packages)) == [], "packages missing from setup.cfg"
    assert sorted(set(packages) - on_disk) == [], "setup.cfg names packages that do not exist"
    assert len(packages) == len(set(packages)), "setup.cfg names a package twice"
