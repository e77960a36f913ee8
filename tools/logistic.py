"""What the ``fit_*.py`` tools share: a logistic regression by Newton's method and the
log-likelihood a position (numpy only; the tools import it as a sibling module)."""

from __future__ import annotations

import numpy as np


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))  # type: ignore[no-any-return]


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 40, ridge: float = 1e-6) -> np.ndarray:
    """The weights ``beta`` of ``P(y = 1) = sigmoid(x @ beta)`` by maximum likelihood (``x``
    carries its own intercept column if one is wanted); ``ridge`` only keeps the Hessian
    invertible."""
    beta = np.zeros(x.shape[1])
    for _ in range(steps):
        p = sigmoid(x @ beta)
        g = x.T @ (y - p)
        h = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        beta += np.linalg.solve(h, g)
    return beta


def log_likelihood(p: np.ndarray, y: np.ndarray) -> float:
    """The mean log-likelihood a position of outcomes ``y`` under chances ``p`` (a coin:
    -0.693)."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
