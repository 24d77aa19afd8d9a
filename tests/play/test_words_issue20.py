"""Issue 20: every question a pack can ask is in the player's words — no rule code (`==`), no
internal name (a snake_case identifier), no hashed seed file name, no "see X above" — in its
text, its help, its fields, its default's citation or its reasons (`?`)."""

from __future__ import annotations

import re

import pytest

from whybot.facts.packs import engine_for
from whybot.facts.play.asking import group_question
from whybot.facts.play.offer import flow_question
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.question import Question, field_question, list_question
from whybot.facts.play.round_start import round_question
from whybot.facts.play.setup import setup_questions
from whybot.facts.play.wording import plain, reason

PACKS = ("arcs", "sparta_athens", "yellow_scarves")
CODE = re.compile(r"==|!=|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b\d{3}_[0-9a-f]{16}\b"
                  r"|\bsee\b[^.;()]*\babove\b|needed when")


def _every_question(name: str) -> list[Question]:
    pack = engine_for(name).pack
    book = load_playbook(pack)
    bots = (book.bot_names or ["Red"])[:book.max_bots]
    questions = setup_questions(name, bots)
    questions += [field_question(spec, pack, fact, "fact", book.wording(fact))
                  for fact, spec in pack.facts.board.items()]
    questions += [field_question(spec, pack, judgment, "answer", book.wording(judgment))
                  for judgment, spec in pack.facts.judgments.items()]
    for kind, entity in pack.facts.entities.items():
        if entity.key and not entity.created:
            listed = list_question(entity.key, entity, pack, book.hidden.get(kind, []),
                                   book.wording(entity.key))
            questions += [listed, *listed.fields]
    # the flow's own questions (a trigger only the table knows), for one bot and for several
    steps = [s for steps in (book.flow.after.values() if book.flow else []) for s in steps]
    questions += [flow_question(pack, names, step, names[0]) for step in steps if step.ask
                  for names in (["red"], ["red", "blue"])]
    questions += [round_question(pack, ["red", "blue"], one)  # asked as a round begins
                  for one in (book.flow.at_round_start.values() if book.flow else [])]
    # every rule that can read a fact is a reason `?` may show
    questions += [Question(id="x", what="fact", kind="text", text="",
                           **reason(pack, rule.id, page.name))
                  for page in pack.pages.values() for rule in page.ordered()]
    return questions


def _shown(question: Question) -> list[str]:
    texts = [question.text, question.help, question.default_cite]
    if question.rule or question.what == "dice":
        texts.append(question.why())
    return [t for t in texts if t]


def _asked_again(name: str) -> list[str]:
    """What a turn that cannot be decided says when it asks again (a stop in `undecided:`)."""
    pack = engine_for(name).pack
    book = load_playbook(pack)
    return [plain(str(rule.then.raw.get("say", ""))) for rule in pack.rules()
            if rule.then.stop is not None and str(rule.then.stop) in book.undecided]


@pytest.mark.parametrize("name", PACKS)
def test_asking_again_says_why_in_words(name):
    says = _asked_again(name)
    assert says if name != "sparta_athens" else not says
    assert [text for text in says if CODE.search(text)] == []


@pytest.mark.parametrize("name", PACKS)
def test_no_question_shows_code_names_or_file_hashes(name):
    found = [(q.id, text) for q in _every_question(name) for text in _shown(q)
             if CODE.search(text)]
    assert found == [], "\n".join(f"{ident}: {text[:160]}" for ident, text in found[:20])


def test_a_citation_reads_as_the_seed_title_and_section():
    pack = engine_for("arcs").pack
    why = reason(pack, "chapter.guild-cards", "chapter")
    assert why["cite"].startswith("SUPERCAT v0.9 §")
    act = setup_questions("arcs", ["red"])[1]
    assert act.default_cite.startswith("SUPERCAT v0.9 § Act I Setup")


def test_a_one_field_list_takes_plain_values_and_words_come_back_to_names():
    bots = setup_questions("arcs")[0]
    assert bots.parse("red, blue") == [{"name": "red"}, {"name": "blue"}]
    assert bots.parse(["red"]) == [{"name": "red"}]
    pack = engine_for("arcs").pack
    step = field_question(pack.facts.board["step"], pack, "step", "fact")
    assert step.parse("round end") == "round_end"
    ambitions = list_question("ambitions", pack.facts.entities["ambition"], pack, [])
    assert ambitions.parse([{"name": "tycoon", "best rival": 2}]) == [
        {"name": "tycoon", "best_rival": 2}]


def _instructions(name: str) -> list[tuple[str, str]]:
    """(rule, text) of every instruction a decision can show at the table (`say:`, a missing
    page's `missing:`), before its `{…}` are filled."""
    pack = engine_for(name).pack
    found = []
    for rule in pack.rules():
        for key in ("say", "missing"):
            text = rule.then.raw.get(key)
            if isinstance(text, str):
                found.append((rule.id, re.sub(r"\{[^}]*\}", "", text)))
    return found


def _field_written(name: str) -> re.Pattern[str]:
    """A pack's own name written as a snapshot gives it: `players:`, `fate: …`, `(slots:)`."""
    pack = engine_for(name).pack
    names = {*pack.facts.board, *pack.facts.judgments,
             *(entity.key for entity in pack.facts.entities.values() if entity.key),
             *(f for entity in pack.facts.entities.values() for f in entity.fields)}
    words = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"\b({words}):(?=[,)]|\s+(?:[\d(\[]|true\b|false\b|so\b)|$)")


@pytest.mark.parametrize("name", PACKS)
def test_what_a_decision_tells_the_table_names_no_snapshot_field(name):
    """A snapshot's field names go under `snapshot:` (shown by decide and why, for whoever
    writes snapshots by hand), not in what the table reads."""
    written = _field_written(name)
    found = [(rule, text) for rule, text in _instructions(name)
             if CODE.search(text) or written.search(text) or "snapshot" in text]
    assert found == [], "\n".join(f"{rule}: {text[:160]}" for rule, text in found[:20])


def test_the_field_pattern_finds_a_field_written_as_a_snapshot_gives_it():
    written = _field_written("arcs")
    assert written.search("List the slots (slots:, each with its name)")
    assert written.search("give the bot's Fate as fate: so it is checked")
    assert not written.search("Round one: 1 die")


INSTRUCTION = ("Roll", "Name", "Pick", "List", "Give", "Mark")


def reads_as_a_question(text: str) -> bool:
    """A question ("…?"), perhaps followed by what it means in brackets or by what to do
    ("Which one? (no: none)", "which one? Name it …"), or an instruction ("Roll 2d6: …")."""
    text = text.strip()
    while text.endswith(")"):  # what it means, in brackets after it
        depth, cut = 0, -1
        for index in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[index], 0)
            if depth == 0:
                cut = index
                break
        if cut <= 0:
            break
        text = text[:cut].rstrip()
    if text.startswith(INSTRUCTION) or text.endswith("?"):
        return True
    return "?" in text and text.rpartition("?")[2].strip().startswith(INSTRUCTION)


def _asked_at_the_table(name: str) -> list[Question]:
    """Every question the pack can ask (not an entry's fields, asked within their list), and
    each group it asks together."""
    book = load_playbook(engine_for(name).pack)
    questions = [q for q in _every_question(name) if q.what != "field" and q.text]
    by_id = {q.id: q for q in questions}
    return questions + [group_question(group, [by_id[f] for f in group.facts])
                        for group in book.together.values()]


@pytest.mark.parametrize("name", PACKS)
def test_every_question_reads_as_a_question_or_an_instruction(name):
    found = [(q.id, q.text) for q in _asked_at_the_table(name)
             if not reads_as_a_question(q.text)]
    assert found == [], "\n".join(f"{ident}: {text[:160]}" for ident, text in found[:30])


def test_the_last_play_s_labels_are_asked_as_questions():
    """The labels the hand play read as questions ("loyal starports, with those built this
    card"): each now asked in the seed's terms, its definition kept as help."""
    pack = engine_for("arcs").pack
    book = load_playbook(pack)
    asked = {q.id: q for q in _asked_at_the_table("arcs")}
    assert asked["starports_now"].text == \
        "How many loyal starports does the bot have, counting those it built this card?"
    assert asked["starports_now"].help == "loyal starports, with those built this card"
    assert asked["flagship"].text == "Does the bot have a Flagship?"
    assert asked["golems"].text.startswith("Which Golems does the bot hold")
    for ident in ("cities_left", "open_claims", "ships_unassigned"):
        assert asked[ident].text.endswith("?") or ")" in asked[ident].text, ident
        assert asked[ident].help == plain((pack.facts.judgments.get(ident)
                                           or pack.facts.board[ident]).says)
    assert book.wording("open_claims").ask.startswith("How many claims does the bot have?")


def test_the_check_tells_a_label_from_a_question():
    assert not reads_as_a_question("loyal starports, with those built this card")
    assert not reads_as_a_question("Which favors are held? holder, owner, count for each")
    assert reads_as_a_question("Which favors are held? (holder, owner, count for each)")
    assert reads_as_a_question("Roll 1d6: the seize roll")
    assert reads_as_a_question("Action 1 (tax): which one? Name it as you see it on the table")
