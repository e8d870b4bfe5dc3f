"""The Python API's upper layer: the estimators and the checks of public calls."""
