"""The screening gate's labelled corpus (dev, fresh and held-out splits) and its scoring."""
