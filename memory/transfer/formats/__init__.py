"""Readers for the places agents keep memory today (rules files, other memory tools' exports).

Each reader turns uploaded files into candidate notes and nothing else: it writes nothing, calls no
store function and knows no principal. The import pipeline judges, screens and caps every candidate
exactly as `remember` would.
"""
