"""The examples in the engine's docstrings run and say what they show."""

import doctest

import cardtable.engine


def test_engine_docstring_examples():
    failures, attempted = doctest.testmod(cardtable.engine, optionflags=doctest.ELLIPSIS)
    assert attempted >= 5 and failures == 0
