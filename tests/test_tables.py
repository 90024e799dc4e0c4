"""Tables of classmates (tricklab.tables over the class store), on SQLite and on PostgreSQL: a
whole game played by two classmates' kernels and two bots through the log alone, two kernels
acting at once, a finished trick held for every classmate, a kernel started again, a seat handed to
a bot and taken back, and every refusal, by name, with nothing written. Each kernel has a
connection of its own, as learners' servers do."""

from __future__ import annotations

import threading
from dataclasses import asdict

import pytest

from tricklab import Match
from tricklab.bots import table_bot
from tricklab.errors import IllegalAction, InvalidAction
from tricklab.games import GAMES, default_players
from tricklab.store import PLAYER, NotAllowed, Store, StoreError, TableSeat, TooManyTries, UnknownSession
from tricklab.tables import SharedTable, TableWaits

pytestmark = pytest.mark.server


def sit_two(stores: list[Store], game: str = "tricks-and-stones", players: int = 4, **options: object):
    """Ana makes a table (Ana, a classmate's seat, a heuristic and a random bot), Ben joins it."""
    kinds = [PLAYER, PLAYER, "heuristic", "random"][:players]
    ana = stores[0].new_table(game, players, dict(options), kinds, "Ana", now=1.0)
    ben = stores[1].join_table(ana.code.lower(), "Ben", now=2.0, who="ben")
    return SharedTable(stores[0], ana, clock=lambda: 3.0), SharedTable(stores[1], ben, clock=lambda: 3.0)


def own_choice(table: SharedTable):
    """What the classmate at ``table`` decides: their game's heuristic bot's choice for the seat."""
    match = table.match
    bot = table_bot(table.rules, table.seat.seat, match.seed, len(match.actions))
    return bot.choose(match.view(table.seat.seat), match.legal_actions())


def step(tables: list[SharedTable]) -> None:
    """Each kernel looks at the log, goes on from what it shows, and acts if it is its turn."""
    for table in tables:
        table.follow()
        table.went_on()
        if table.waiting_for():  # a classmate is still looking at the last trick
            continue
        if table.my_turn:
            table.act(own_choice(table))
        else:
            table.play_bot()


@pytest.mark.parametrize("game", list(GAMES))
def test_two_classmates_and_bots_play_a_whole_game_through_the_log(stores: list[Store], game: str) -> None:
    players = default_players(GAMES[game])
    ana, ben = sit_two(stores, game, players)
    assert (ana.seat.seat, ben.seat.seat) == (0, 1) and ana.seat.code == ben.seat.code
    for _ in range(ana.rules.max_decisions * 2):
        if ana.match.is_over:
            break
        step([ana, ben])
    ben.follow()
    assert ana.match.is_over and ben.match.is_over
    assert ana.match.actions == ben.match.actions
    assert ana.match.result == ben.match.result
    # the log is the match: the table's start and its actions replay to the same result
    again = Match.from_record(stores[2].table_start(ana.seat))
    for action in stores[2].table_poll(ana.seat).actions:
        again.apply(action)
    assert again.result == ana.match.result and again.actions == ana.match.actions
    with pytest.raises(StoreError, match="over"):
        stores[0].table_append(ana.seat, len(ana.match.actions), "play 7H", now=9.0)


def test_the_seed_stays_in_the_store_what_a_seat_is_given_holds_none(stores: list[Store]) -> None:
    ana, ben = sit_two(stores)
    seed = ana.match.seed
    assert seed == ben.match.seed  # the kernels have it: they check actions with the engine
    for value in (asdict(ana.seat), asdict(ben.seat), asdict(stores[1].table_poll(ben.seat))):
        assert str(seed) not in repr(value) and "seed" not in repr(value)


def test_two_kernels_acting_at_once_land_one_action_and_both_follow_it(class_store_url: str) -> None:
    """Each kernel on its own connection and thread makes the bots' moves at the same moment: one
    lands per number, none is lost, doubled or reordered."""
    setup = Store.open(class_store_url)
    ana_seat = setup.new_table("band-of-tricks", 4, {}, ["heuristic"] * 3 + [PLAYER], "Ana", now=1.0, seat=3)
    setup.table_hand_over(ana_seat, 3, "random")  # every seat a bot's: each kernel makes every move
    kernels = [SharedTable(Store.open(class_store_url), ana_seat) for _ in range(2)]
    landed: list[list[bool]] = [[], []]
    barrier = threading.Barrier(2)

    def race(index: int) -> None:
        table = kernels[index]
        for _ in range(20):
            barrier.wait(timeout=30)
            number = len(table.match.actions)
            action = table.bot_action()
            assert action is not None
            landed[index].append(table.store.table_append(table.seat, number, str(action), now=2.0))
            table.follow()
            barrier.wait(timeout=30)

    threads = [threading.Thread(target=race, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(len(tries) == 20 for tries in landed)
    assert [a != b for a, b in zip(*landed, strict=True)] == [True] * 20  # exactly one landed each time
    log = setup.table_poll(ana_seat).actions
    assert len(log) == 20 and [str(a) for a in kernels[0].match.actions] == list(log)
    assert kernels[0].match.actions == kernels[1].match.actions
    for kernel in kernels:
        kernel.store.close()
    setup.close()


def test_a_kernel_that_lost_the_race_has_followed_the_log_and_is_told(stores: list[Store]) -> None:
    ana, ben = sit_two(stores, "kalah", 2)
    first = own_choice(ana)
    stale = SharedTable(stores[2], ana.seat)  # the same seat's page, open twice (two tabs)
    assert ana.act(first)
    assert len(stale.match.actions) == 0
    assert stale.act(own_choice(stale)) is False  # its number was taken: nothing written twice
    assert stale.match.actions == ana.match.actions
    assert len(stores[1].table_poll(ben.seat).actions) == 1


def test_a_finished_trick_waits_for_every_classmate_to_go_on(stores: list[Store]) -> None:
    ana, ben = sit_two(stores, "band-of-tricks", 4)
    while True:  # play until the first trick is won; nobody goes on from it
        for table in (ana, ben):
            table.follow()
        if ana.holds():
            break
        ana.went_on()
        ben.went_on()
        if ana.my_turn:
            ana.act(own_choice(ana))
        elif ben.my_turn:
            ben.act(own_choice(ben))
        else:
            ana.play_bot()
    ana.follow()
    assert ana.waiting_for() == [0, 1]  # nobody has gone on from the trick yet
    ana.went_on()
    assert ana.waiting_for() == [ben.seat.seat]
    held = len(ana.match.actions)
    assert not ana.play_bot()  # the bots wait as well
    if ana.my_turn:
        with pytest.raises(TableWaits, match="Ben"):
            ana.act(own_choice(ana))
    ben.follow()
    ben.went_on()
    ana.follow()
    assert ana.waiting_for() == []
    assert len(ana.match.actions) == held  # nothing was written while the table waited


def test_a_seat_handed_to_a_bot_is_played_by_it_and_taken_back(stores: list[Store]) -> None:
    ana, ben = sit_two(stores, "kalah", 2)
    stores[1].table_hand_over(ben.seat, ben.seat.seat, "heuristic")  # Ben leaves: a bot takes his seat
    for table in (ana, ben):
        table.follow()
    assert ana.is_bot(1) and not ben.my_turn
    while ana.match.to_play == 0:
        ana.act(own_choice(ana))
    assert ana.play_bot()  # any kernel at the table plays the bot's move
    ben.follow()
    stores[1].table_sit(ben.seat)  # Ben is back, from the same device (his seat's token)
    back = SharedTable(stores[2], stores[2].table_seat(ben.seat.token))  # his kernel started again
    assert back.match.actions == ana.match.actions and not back.is_bot(1)


def test_refusals_name_what_is_wrong_and_write_nothing(stores: list[Store]) -> None:
    store = stores[0]
    ana, ben = sit_two(stores, "tricks-and-stones", 4)
    while ana.match.to_play != 0:  # the others predict first
        step([ben] if ben.my_turn else [ana])
        ana.follow()
    count = len(ana.match.actions)
    with pytest.raises(InvalidAction, match="not a card"):
        store.table_append(ana.seat, count, "play ZZ", now=5.0)
    with pytest.raises(IllegalAction):  # a card, but the table is predicting
        store.table_append(ana.seat, count, "play 7H", now=5.0)
    with pytest.raises(IllegalAction):
        ana.act("predict 99")
    with pytest.raises(NotAllowed, match="turn"):  # Ana's turn: Ben may not act for her
        stores[1].table_append(ben.seat, count, str(ana.match.legal_actions()[0]), now=5.0)
    with pytest.raises(StoreError, match="next is number"):
        store.table_append(ana.seat, count + 3, str(ana.match.legal_actions()[0]), now=5.0)
    forged = TableSeat(ana.seat.table_id, ana.seat.code, 1, "Ben", "not-his-token")
    with pytest.raises(NotAllowed):
        store.table_poll(forged)
    with pytest.raises(NotAllowed):
        store.table_start(forged)
    assert len(store.table_poll(ana.seat).actions) == count
    with pytest.raises(StoreError, match="taken"):
        store.join_table(ana.seat.code, "Cy", now=6.0)  # both classmates' seats are taken
    other = store.new_table("kalah", 2, {}, [PLAYER, PLAYER], "Ana", now=6.0)  # another table of Ana's
    with pytest.raises(StoreError, match="called"):
        store.join_table(other.code, "Ana", now=6.0)
    with pytest.raises(StoreError, match="classmate"):
        store.new_table("kalah", 2, {}, [PLAYER, "a-grandmaster"], "Ana", now=6.0)
    with pytest.raises(StoreError, match="bot's"):
        store.new_table("kalah", 2, {}, ["random", PLAYER], "Ana", now=6.0)
    with pytest.raises(StoreError, match="each seat"):
        store.new_table("kalah", 2, {}, [PLAYER], "Ana", now=6.0)
    with pytest.raises(StoreError, match="display name"):
        store.new_table("kalah", 2, {}, [PLAYER, PLAYER], " ", now=6.0)
    with pytest.raises(StoreError, match="bot"):
        store.table_hand_over(ana.seat, 1, "a-grandmaster")
    for _ in range(5):
        with pytest.raises(UnknownSession):
            store.join_table("ZZZZZZ", "Eve", now=10.0, who="eve")
    with pytest.raises(TooManyTries):
        store.join_table(ana.seat.code, "Eve", now=11.0, who="eve")


def test_a_name_is_kept_as_text(stores: list[Store]) -> None:
    seat = stores[0].new_table("kalah", 2, {}, [PLAYER, PLAYER], "<img src=x onerror=alert(1)>", now=1.0)
    assert stores[0].table_poll(seat).seats[0].name == "<img src=x onerror=alert(1)>"
