"""``mypyc_attr`` for the modules ``tools/compile.py`` may compile, without a runtime dependency.

mypyc reads the decorator when it compiles a module (and then does not call it); a pure-Python
install has no ``mypy_extensions``, so at run time the decorator is a no-op. Used as
``@mypyc_attr(allow_interpreted_subclasses=True)`` on a compiled game class that Python code
(tests, variants) subclasses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Any:
        return lambda cls: cls
