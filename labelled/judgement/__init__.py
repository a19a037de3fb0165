"""Labelled pairs of notes (old, new) with the status remember must give the new one."""
