"""Explanations beyond the trace. Takes an engine, a situation and its trace; gives data the
CLI renders.

- `verdict`: `why --rule ID`: whether one rule fired, where and on what, or why not.
- `divergence`: where two walks of the same situation part (`batch --diff`).
"""
