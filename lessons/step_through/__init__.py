"""Lesson 1: the perceptron update, one example at a time."""
