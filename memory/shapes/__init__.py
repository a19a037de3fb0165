"""The shape of every answer of the store, as TypedDicts (see results.py for the pattern).

They sit beside the store, not inside it, so the modules the store is built from (recall, capture,
notes, transfer) can name the shapes they build without importing the store itself. The store
re-exports them: entry points write `store.results.Note`."""
