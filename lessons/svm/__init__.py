"""Lesson 5: the perceptron versus the SVM: losses, maximum margin, soft margin, generalization."""
