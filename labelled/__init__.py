"""Labelled data sets, frozen before any tuning, and the harnesses that score the product on them.

Both the test suite (quality floors) and tools/bench (reports) import them: retrieval sets (search
modes, fusion, context recall), judgement pairs (remember's statuses) and the screening corpus
(precision and recall per secret family)."""
