"""Payment cards printed with dots, underscores, slashes or one group per line (cards.separated,
issue 20 point 4), and the numbers of the same characters that are not cards."""

from __future__ import annotations

import pytest

from memory.screening.gate import screen

CARDS = [
    "card 4111.1111.1111.1111 exp 12/27",
    "pan=5555_5555_5555_4444",
    "4242/4242/4242/4242",
    "Amex 3782.822463.10005 on file",
    "card:\n4000\n0566\n5566\n5556\nthanks",
    "card:\r\n5425\r\n2334\r\n3010\r\n9903\r\n",
    "paid on 2024/01/15 with 4111.1111.1111.1111.",
]
NOT_CARDS = [
    "version 4.1.1111.1111 released",
    "4111.1111.1111.1112",  # Luhn-invalid
    "dates 2024/11/30 and 2026/01/15",
    "hosts 10.4.111.23 and 192.168.100.200",
    "ports:\n5432\n6379\n8080\n9201\n",
    "years:\n2019\n2020\n2021\n2022\n2023\n",
    "ratio 0.4242424242424242",
    "build v4111.1111.1111.1111",
    "1.4111.1111.1111.1111",
    "phone 555.123.4567",
    "total 4111.1111.1111.1111.50",
]


@pytest.mark.parametrize("text", CARDS)
def test_a_separated_card_is_refused(text):
    finding = screen({"content": text})
    assert finding is not None and finding.family == "payment_card"


@pytest.mark.parametrize("text", NOT_CARDS)
def test_numbers_of_the_same_characters_pass(text):
    assert screen({"content": text}) is None
