"""The NumPy backend: `executor` generates straight-line Python that calls NumPy for a graph."""
