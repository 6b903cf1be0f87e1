"""The UI catalogues, one TOML file per language (read by :mod:`cardtable.i18n`)."""
