"""cardtable: a terminal card table for Guandan, Gong Zhu and Guiñote."""

__version__ = "0.1.0"

from cardtable import earlystart as _earlystart

if _earlystart.running_as_the_command():
    _earlystart.install(__import__("sys").argv[1:])
