# Type stubs of exanet._native, the module's Rust half (python/src/lib.rs).
from typing import Any, Callable

__version__: str

class ConfigError(ValueError):
    """A configuration field (or file) is invalid; `field` names it."""

    field: str

class InputError(ValueError):
    """A command's arguments or configuration are refused (the command line's exit status 2)."""

class RunError(RuntimeError):
    """A run failed (the command line's exit status 1)."""

class Config:
    """A configuration held by the library (exanet.Config wraps it)."""

    @staticmethod
    def defaults() -> Config: ...
    @staticmethod
    def parse(text: str, json: bool, name: str) -> Config: ...
    @staticmethod
    def read(path: str) -> Config: ...
    def with_sets(self, sets: list[tuple[str, str]]) -> Config: ...
    def to_json(self) -> str: ...
    def to_toml(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

def rtl_built_in() -> bool: ...
def call(
    args: list[str],
    config: Config | None = None,
    progress: Callable[[str, int, int | None, str], Any] | None = None,
) -> str: ...
