"""The lessons: one package each, holding its page and its parts."""
