"""Lesson 3: Boolean functions as perceptrons, and why no line computes XOR."""
