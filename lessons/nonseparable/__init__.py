"""Lesson 4: non-separable data. The perceptron cycles; the pocket and the average help."""
