"""Lesson 2: the margin of a boundary, the maximum margin, and Novikoff's mistake bound."""
