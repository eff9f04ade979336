"""Shared test configuration: hypothesis is derandomized so every run checks the same cases."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "simpred",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("simpred")
