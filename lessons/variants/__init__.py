"""Lesson 6: averaged, voted and kernel perceptrons, and more than two classes."""
