"""simulate.compile.Ahead: engines compiled in other processes while a command plays."""

import pytest

from simulate.compile import Ahead
from simulate.errors import Interrupted


class _Job:
    """An AsyncResult stand-in: never ready, or ready with a value or an error."""

    def __init__(self, ready=False, value=0.5, error=None):
        self._ready, self.value, self.error = ready, value, error

    def ready(self):
        return self._ready

    def wait(self, timeout):
        pass

    def get(self):
        if self.error:
            raise self.error
        return self.value


def test_an_engine_is_ready_after_wait(capfd):
    # make test compiled the engines first: the other process loads it from the cache
    with Ahead(["rum-runner"], jobs=1) as ahead:
        ahead.wait("rum-runner")
        assert "rum-runner" not in ahead.jobs
        ahead.wait("rum-runner")  # a second wait returns at once
    assert "compiled" not in capfd.readouterr().err  # a cached load says nothing


def test_a_stop_ends_the_wait():
    with Ahead([], jobs=1) as ahead:
        ahead.jobs["motines"] = _Job(ready=False)
        with pytest.raises(Interrupted, match="while the 21 Motines engine compiled"):
            ahead.wait("motines", stop=lambda: True)


def test_a_failed_compile_is_left_to_the_run(capfd):
    with Ahead([], jobs=1) as ahead:
        ahead.jobs["motines"] = _Job(ready=True, error=RuntimeError("boom"))
        ahead.wait("motines")  # no error here: the run compiles it and reports what fails


def test_a_compile_that_took_long_is_said(capfd):
    with Ahead([], jobs=1) as ahead:
        ahead.jobs["montego-bay"] = _Job(ready=True, value=41.0)
        ahead.wait("montego-bay")
    assert "the Montego Bay engine compiled in 41 s in another process" in capfd.readouterr().err
