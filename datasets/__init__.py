"""Data sets for the lessons: the :class:`Dataset` type, built-in sets and the CSV loader."""

from datasets.dataset import Dataset
from datasets.loader import load_csv

__all__ = ["Dataset", "load_csv"]
