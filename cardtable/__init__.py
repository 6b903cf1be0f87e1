"""cardtable: a terminal card table for Guandan, Gong Zhu and Guiñote."""

__version__ = "0.1.0"
