"""Players as a designer reads them (reports.words.player_label): the base as named, the
search budget in the parameter's own words, and labels that never read alike."""

from engines import get_game
from reports.words import player_label, player_labels


def test_a_search_player_is_its_base_and_its_budget():
    info = get_game("motines")
    assert player_label(info.policy("greedy")) == "greedy"
    assert player_label(info.policy("expert")) == "expert"
    assert (player_label(info.policy("rollout:samples=4:width=2:prior=0.35:base=expert"))
            == "expert + search, 4 playouts per option")
    assert (player_label(get_game("montego-bay").policy("sampler:n_samples=128:base=greedy"))
            .startswith("greedy + search, 128 opponent profiles"))


def test_a_default_budget_is_said_too():
    info = get_game("rum-and-pirates")
    default = next(p.default for p in info.policy("rollout").spec.params if p.name == "samples")
    assert player_label(info.policy("rollout:width=3:base=expert")) == (
        f"expert + search, {default:g} playouts per candidate")


def test_players_that_would_read_alike_keep_their_specification():
    info = get_game("motines")
    specs = ["rollout:samples=4:width=2:base=expert", "rollout:samples=4:width=3:base=expert",
             "expert"]
    labels = player_labels(info, specs)
    assert len(set(labels.values())) == 3
    assert labels["expert"] == "expert"
    assert "width=3" in labels["rollout:samples=4:width=3:base=expert"]
