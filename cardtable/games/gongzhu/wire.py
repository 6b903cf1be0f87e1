"""Gong Zhu's view on the wire (cardtable/wire.py): the legal moves are the only field the annotations
leave open."""

from cardtable import wire
from cardtable.cards import Card, parse_card
from cardtable.games.gongzhu.state import GongZhuView, decode_move

CODEC = wire.ViewCodec(GongZhuView, parse_card, Card, decode_move,
                       fields={"legal": tuple[wire.Move, ...]})
