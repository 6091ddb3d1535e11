"""Component sheets of Bus & Stop, Busstop and BUS: one reader (UTF-8 JSON files), one message
shape (the file, the field, what is expected), JSON Schemas checked by ``jsonschema``, and games
that keep the sheet's contents, so saved games replay without the file.
"""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path
from types import MappingProxyType

import jsonschema
import pytest

import bus_lab
from bus_lab import ParameterError, Session
from bus_lab.games import bus_and_stop, bus_city, busstop
from bus_lab.games.bus_and_stop import components as bas_components
from bus_lab.games.bus_city import components as bus_components
from bus_lab.games.busstop import components as bsb_components
from bus_lab.games.sheets import (
    ComponentSheetError,
    SheetFormat,
    SheetProblem,
    field_path,
    plain_copy,
    read_sheet_file,
    schema_words,
)

COMPONENTS = {"bus_and_stop": bas_components, "busstop": bsb_components, "bus_city": bus_components}
GAMES = list(COMPONENTS)


def default_data(name: str) -> dict:
    module = COMPONENTS[name]
    return module.default_sheet_dict() if name == "bus_city" else module.default_sheet_data()


def changed_data(name: str) -> dict:
    """A sheet that plays differently from the default one (still valid)."""
    data = default_data(name)
    if name == "bus_and_stop":
        data["deck"]["senior"] = {"yellow": 2, "green": 2, "blue": 3, "purple": 2, "red": 2}
    elif name == "busstop":
        data["bus_seats"] = [2, 2, 6]
    else:
        data["title"] = "raised values"
        for card in data["passengers"]:
            card["value"] += 3
    return data


def spoiled(name: str) -> tuple[dict, str, str]:
    """A sheet with one bad field, that field, and the start of what the message says about it."""
    data = default_data(name)
    if name == "bus_and_stop":
        data["stacks"][1]["cards"][2]["points"] = [1, 2, 3]
        return data, "stacks[1].cards[2].points", "must list one number per count (4), not [1, 2, 3]"
    if name == "busstop":
        data["bus_seats"] = [3, 0, 5]
        return data, "bus_seats[2]", "must be a whole number from 1 to 20, not 0"
    data["passengers"][3]["value"] = 0
    return data, "passengers[3].value", "must be a whole number from 1 to 9, not 0"


def write(path: Path, data: dict, encoding: str = "utf-8") -> Path:
    path.write_bytes(json.dumps(data, ensure_ascii=False, indent=1).encode(encoding))
    return path


# -- reading a file ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_utf8_file_with_a_byte_order_mark_is_read(name, tmp_path):
    data = changed_data(name)
    data["_note" if name == "busstop" else "title"] = "Café à l'école"
    path = tmp_path / "sheet.json"
    path.write_bytes(codecs.BOM_UTF8 + json.dumps(data, ensure_ascii=False).encode("utf-8"))
    from_file = bus_lab.load_game(name, sheet=path)
    assert from_file == bus_lab.load_game(name, sheet=data)
    if name != "busstop":  # Busstop drops comment keys
        assert from_file.params["sheet"]["title"] == "Café à l'école"


@pytest.mark.parametrize("name", GAMES)
def test_a_latin1_file_is_refused_naming_the_file_and_the_first_bad_byte(name, tmp_path):
    data = default_data(name)
    data["_note" if name == "busstop" else "title"] = "Café"
    text = json.dumps(data, ensure_ascii=False, indent=1)
    path = tmp_path / "latin.json"
    path.write_bytes(text.encode("latin-1"))
    at = text.index("é")
    line = text[:at].count("\n") + 1
    column = at - text.rfind("\n", 0, at)
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game(name, sheet=str(path))
    assert str(info.value) == (
        f"component sheet file {str(path)!r} is not UTF-8 text: byte 0xe9 at line {line}, column {column} "
        "(Latin-1 or Windows text?); save it as UTF-8"
    )
    assert isinstance(info.value, ParameterError)


def test_the_first_bad_byte_on_the_first_line_is_at_its_column(tmp_path):
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a sheet")  # a JPEG header
    with pytest.raises(ComponentSheetError, match=r"byte 0xff at line 1, column 1 "):
        read_sheet_file(path)
    path.write_bytes(b'{"a":\n "caf\xe9"}')
    with pytest.raises(ComponentSheetError, match=r"byte 0xe9 at line 2, column 6 "):
        read_sheet_file(path)
    path.write_bytes(b"\n\xe9")  # the first line is empty
    with pytest.raises(ComponentSheetError, match=r"byte 0xe9 at line 2, column 1 "):
        read_sheet_file(path)


@pytest.mark.parametrize("name", GAMES)
def test_a_utf16_file_is_refused(name, tmp_path):
    path = write(tmp_path / "wide.json", default_data(name), "utf-16")  # with its byte-order mark
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game(name, sheet=path)
    assert str(info.value) == (
        f"component sheet file {str(path)!r} is not UTF-8 text: it is UTF-16 text; save it as UTF-8"
    )
    write(path, default_data(name), "utf-16-be")  # no byte-order mark
    with pytest.raises(ComponentSheetError, match="is not UTF-8 text: it holds zero bytes"):
        bus_lab.load_game(name, sheet=path)
    path.write_bytes(codecs.BOM_UTF16_BE + b"{}")
    with pytest.raises(ComponentSheetError, match="it is UTF-16 text"):
        read_sheet_file(path)


def test_a_binary_file_is_refused(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game("bus_city", sheet=path)
    assert str(info.value) == (
        f"component sheet file {str(path)!r} is not UTF-8 text: it holds zero bytes (a binary file?); "
        "save it as UTF-8 text"
    )


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8], ids=["plain", "bom"])
def test_invalid_json_names_the_file_line_and_column(name, bom, tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes(bom + b'{\n  "title": "x",\n  oops\n}')
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game(name, sheet=path)
    assert str(info.value) == (
        f"component sheet file {str(path)!r} is not valid JSON: line 3, column 3: "
        "Expecting property name enclosed in double quotes"
    )


def test_a_key_given_twice_is_refused(tmp_path):
    """JSON keeps only the last of two equal keys: a teacher's pasted line must not vanish silently."""
    path = tmp_path / "twice.json"
    path.write_text('{"deck": {"senior": 2, "mother": 3, "senior": 4}}', encoding="utf-8")
    with pytest.raises(ComponentSheetError) as info:
        read_sheet_file(path)
    assert str(info.value) == (
        f"component sheet file {str(path)!r} is not valid JSON for a sheet: "
        "the key 'senior' appears twice in one object"
    )
    path.write_text('{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 1}]}', encoding="utf-8")
    assert read_sheet_file(path) == {"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 1}]}


@pytest.mark.parametrize("name", GAMES)
def test_an_unreadable_path_is_refused_naming_it(name, tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game(name, sheet=str(missing))
    assert (
        str(info.value) == f"cannot read the component sheet file {str(missing)!r}: No such file or directory"
    )
    with pytest.raises(
        ComponentSheetError, match=f"cannot read the component sheet file {str(tmp_path)!r}: "
    ):
        bus_lab.load_game(name, sheet=tmp_path)  # a folder


def test_one_error_class_for_every_game():
    assert bas_components.ComponentSheetError is ComponentSheetError
    assert bus_components.ComponentSheetError is ComponentSheetError
    assert busstop.SheetError is ComponentSheetError
    assert bus_and_stop.ComponentSheetError is bus_city.ComponentSheetError
    assert issubclass(ComponentSheetError, ParameterError) and issubclass(ComponentSheetError, ValueError)


# -- messages name the file and the field ------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_bad_field_is_named_with_the_file_it_is_in(name, tmp_path):
    data, field, problem = spoiled(name)
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game(name, sheet=data)
    assert str(info.value) == f"component sheet, field {field}: {problem}"
    for file_name in ("first.json", "second.json"):  # the same data in two files: each is named
        path = write(tmp_path / file_name, data)
        with pytest.raises(ComponentSheetError) as info:
            bus_lab.load_game(name, sheet=path)
        assert str(info.value) == f"component sheet {str(path)!r}, field {field}: {problem}"


@pytest.mark.parametrize(
    "value, shown", [(2.0, "2.0"), (True, "True"), ("2", "'2'")], ids=["float", "bool", "text"]
)
def test_a_whole_number_is_written_without_a_decimal_point(value, shown):
    data = default_data("bus_city")
    data["passengers"][0]["value"] = value
    with pytest.raises(ComponentSheetError) as info:
        bus_lab.load_game("bus_city", sheet=data)
    assert str(info.value) == (
        f"component sheet, field passengers[0].value: must be a whole number from 1 to 9, not {shown}"
    )


@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_that_is_not_an_object(name):
    validate = bus_components.parse_sheet if name == "bus_city" else COMPONENTS[name].validate_sheet
    with pytest.raises(ComponentSheetError) as info:
        validate([1, 2])
    assert str(info.value) == "component sheet: must be an object, not [1, 2]"


@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_of_another_type_is_refused(name):
    for bad in (3, [1], 2.5):
        with pytest.raises(ComponentSheetError) as info:
            bus_lab.load_game(name, sheet=bad)
        assert (
            str(info.value)
            == f"sheet={bad!r}: use None (the built-in sheet), a path to a JSON file, or a dict"
        )


@pytest.mark.parametrize("name", GAMES)
def test_the_packaged_sheets_pass_their_json_schemas(name):
    """Each schema is a real draft 2020-12 JSON Schema, and the packaged sheet passes it as it is."""
    module = COMPONENTS[name]
    assert module.SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(module.SCHEMA)
    data = json.loads(module.DEFAULT_SHEET_PATH.read_text(encoding="utf-8"))
    if name == "busstop":
        data = {k: v for k, v in data.items() if not k.startswith("_")}
        data["zones"] = {k: v for k, v in data["zones"].items() if not k.startswith("_")}
    jsonschema.Draft202012Validator(module.SCHEMA).validate(data)


# -- the message shape, on a small schema --------------------------------------------------------------
TINY = {
    "title": "a tiny sheet",
    "type": "object",
    "required": ["n"],
    "additionalProperties": False,
    "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 3},
        "k": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-expected": "a number or a word"},
        "m": {"anyOf": [{"type": "integer", "minimum": 5}, {"type": "array", "items": {"type": "string"}}]},
        "xs": {"type": "array", "minItems": 1, "items": {"enum": ["a", "b"]}},
        "flag": {"const": True},
        "gone": {"not": {}},
        "inner": {"type": "object", "additionalProperties": False, "properties": {"p": {"type": "string"}}},
    },
}


def tiny_build(data):
    if data.get("k") == "boom":
        raise SheetProblem(("xs", 0, "deep key"), "is wrong in a way only the build sees")
    if data.get("k") == "everything":
        raise SheetProblem((), "is wrong as a whole")
    return ("built", data)


@pytest.fixture
def tiny(tmp_path):
    return SheetFormat(TINY, tiny_build, tmp_path / "tiny.json")


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "field n: is missing"),
        ({"n": 1, "z": 0}, "field z: is not a field of a tiny sheet: use n, k, m, xs, flag, gone, inner"),
        ({"n": 1, "inner": {"q": 1}}, "field inner.q: is not a field of this object: use p"),
        ({"n": 0}, "field n: must be a whole number from 1 to 3, not 0"),
        ({"n": 1.0}, "field n: must be a whole number from 1 to 3, not 1.0"),
        ({"n": False}, "field n: must be a whole number from 1 to 3, not False"),
        ({"n": 1, "k": []}, "field k: must be a number or a word, not []"),
        ({"n": 1, "m": 3}, "field m: must be a whole number of at least 5, not 3"),  # the branch of its type
        ({"n": 1, "m": [1]}, "field m[0]: must be a string, not 1"),  # the deepest problem
        ({"n": 1, "m": ["s"]}, None),
        ({"n": 1, "xs": []}, "field xs: must be a list of at least 1 entry, not []"),
        ({"n": 1, "xs": ["a", "c"]}, "field xs[1]: must be one of 'a', 'b', not 'c'"),
        ({"n": 1, "flag": False}, "field flag: must be True, not False"),
        ({"n": 1, "gone": 1}, "field gone: must be a value, not 1"),
        ([], "must be an object, not []"),
        ({"n": 0, "z": 1}, "field z: is not a field of a tiny sheet: use n, k, m, xs, flag, gone, inner"),
        ({"xs": ["c"]}, "field n: is missing"),  # the error nearest the top comes first
        ({"n": 1, "k": "boom"}, "field xs[0]['deep key']: is wrong in a way only the build sees"),
        ({"n": 1, "k": "everything"}, "is wrong as a whole"),
    ],
)
def test_messages(tiny, data, message):
    if message is None:
        assert tiny.check(data) == ("built", data)
        return
    with pytest.raises(ComponentSheetError) as info:
        tiny.check(data)
    assert str(info.value) == (
        "component sheet, " + message if message.startswith("field") else "component sheet: " + message
    )
    with pytest.raises(ComponentSheetError) as info:
        tiny.check(data, "'x.json'")
    assert str(info.value).startswith(
        "component sheet 'x.json'" + (", field" if message.startswith("field") else ": ")
    )


def test_a_good_sheet_is_built(tiny):
    assert tiny.check({"n": 2, "k": "word", "xs": ["b"]}) == ("built", {"n": 2, "k": "word", "xs": ["b"]})


@pytest.mark.parametrize(
    "value, shown",
    [
        ("z" * 58, "'" + "z" * 58 + "'"),  # 60 characters: shown as it is
        ("z" * 59, "'" + "z" * 56 + "..."),  # 61: cut
        ([0] * 19, repr([0] * 19)),  # 58 characters
        ([0] * 40, "a list of 40 entries"),
        ({"y" * 70: 1}, "an object"),
    ],
)
def test_long_values_are_shortened(tiny, value, shown):
    with pytest.raises(ComponentSheetError) as info:
        tiny.check({"n": 1, "flag": value})
    assert str(info.value) == f"component sheet, field flag: must be True, not {shown}"


def test_lists_counted_from_one_in_messages(tmp_path):
    fmt = SheetFormat(TINY, tiny_build, tmp_path / "tiny.json", counted_from_one=("xs",))
    with pytest.raises(ComponentSheetError, match=r"^component sheet, field xs\[2\]: must be one of"):
        fmt.check({"n": 1, "xs": ["a", "c"]})


def test_the_packaged_sheet_is_named_when_it_is_bad(tiny):
    tiny.default_path.write_text('{"n": 7}', encoding="utf-8")
    with pytest.raises(ComponentSheetError) as info:
        tiny.load(None)
    assert (
        str(info.value)
        == "component sheet tiny.json (built in), field n: must be a whole number from 1 to 3, not 7"
    )
    tiny.default_path.write_text('{"n": 2}', encoding="utf-8")
    assert tiny.load() == ("built", {"n": 2})
    assert tiny.open(None) == (("built", {"n": 2}), None)


def test_prepare_runs_before_the_check_and_gives_the_kept_data(tmp_path):
    fmt = SheetFormat(
        TINY, tiny_build, tmp_path / "t.json", prepare=lambda d: {k: v for k, v in d.items() if k != "_c"}
    )
    path = tmp_path / "mine.json"
    path.write_text('{"_c": "a comment", "n": 3}', encoding="utf-8")
    assert fmt.open(path) == (("built", {"n": 3}), {"n": 3})
    assert fmt.open({"_c": 0, "n": 3}) == (("built", {"n": 3}), {"n": 3})
    assert fmt.data_of(str(path)) == ({"n": 3}, repr(str(path)))
    assert fmt.data_of({"n": 1}) == ({"n": 1}, "")


@pytest.mark.parametrize(
    "parts, from_one, text",
    [
        (("stacks", 2, "cards", 0, "points"), (), "stacks[2].cards[0].points"),
        (("deck", "tennis player", "yellow"), (), "deck['tennis player'].yellow"),
        (("zones", "4", "positions", 2, "black", 0), ("positions", "black"), "zones.4.positions[3].black[1]"),
        (("passenger_bonus", 4), ("positions",), "passenger_bonus[4]"),
        (("positions", 0, 0), ("positions",), "positions[1][0]"),
        ((0, "x"), (), "[0].x"),
        ((), (), ""),
    ],
)
def test_field_path(parts, from_one, text):
    assert field_path(parts, frozenset(from_one)) == text


@pytest.mark.parametrize(
    "schema, words",
    [
        ({"x-expected": "a thing", "type": "integer", "minimum": 0}, "a thing"),
        ({"enum": ["a", 1]}, "one of 'a', 1"),
        ({"const": "x"}, "'x'"),
        ({"type": "array", "minItems": 2, "maxItems": 9}, "a list of 2 to 9 entries"),
        ({"type": "array", "minItems": 3, "maxItems": 3}, "a list of exactly 3 entries"),
        ({"type": "array", "maxItems": 4}, "a list of at most 4 entries"),
        ({"type": "array", "maxItems": 1}, "a list of at most 1 entry"),
        ({"type": "array", "minItems": 1, "maxItems": 1}, "a list of exactly 1 entry"),
        ({"type": "array", "minItems": 0, "maxItems": 1}, "a list of 0 to 1 entry"),
        ({"type": "array", "minItems": 1}, "a list of at least 1 entry"),
        ({"type": "integer", "minimum": 0, "maximum": 200}, "a whole number from 0 to 200"),
        ({"type": "integer", "minimum": 1}, "a whole number of at least 1"),
        ({"type": "integer", "maximum": 9}, "a whole number of at most 9"),
        ({"type": "string"}, "a string"),
        ({"type": "boolean"}, "true or false"),
        ({"type": "object"}, "an object"),
        ({"type": "array"}, "a list"),
        ({}, "a value"),
    ],
)
def test_schema_words(schema, words):
    assert schema_words(schema) == words


def test_plain_copy():
    assert plain_copy({"a": (1, 2), 3: "x", "n": None}) == {"a": [1, 2], "3": "x", "n": None}
    assert plain_copy(MappingProxyType({"a": MappingProxyType({"b": 1})})) == {"a": {"b": 1}}
    data = {"a": [1]}
    copy = plain_copy(data)
    copy["a"].append(2)
    assert data == {"a": [1]}
    with pytest.raises(ComponentSheetError) as info:
        plain_copy({"a": {1, 2}})
    assert str(info.value) == "component sheet: a dict sheet must hold JSON data only (set is not JSON data)"
    loop: dict = {}
    loop["me"] = loop
    with pytest.raises(ComponentSheetError, match="must hold JSON data only"):
        plain_copy(loop)


def test_a_built_sheet_is_accepted_by_bus_and_stop():
    sheet = bas_components.load_sheet(changed_data("bus_and_stop"))
    assert bas_components.load_sheet(sheet) is sheet
    game = bus_lab.load_game("bus_and_stop", sheet=sheet)
    assert game.sheet == sheet and game.params["sheet"] == changed_data("bus_and_stop")
    assert game == bus_lab.load_game("bus_and_stop", sheet=changed_data("bus_and_stop"))


# -- games keep the sheet's contents -------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_from_a_file_is_kept_as_its_contents(name, tmp_path):
    data = changed_data(name)
    path = write(tmp_path / "mine.json", data)
    games = [bus_lab.load_game(name, sheet=s) for s in (path, str(path), data)]
    for game in games:
        assert game.params["sheet"] == data and isinstance(game.params["sheet"], dict)
        assert game == games[0] and hash(game) == hash(games[0])
        assert json.loads(json.dumps(game.params)) == game.params
    assert games[0] != bus_lab.load_game(name)
    assert bus_lab.load_game(name).params["sheet"] is None
    assert bus_lab.load_game(name).sheet is COMPONENTS[name].load_sheet()
    # the game keeps what the file held when it was made
    write(path, default_data(name))
    assert games[0].params["sheet"] == data and games[0] != bus_lab.load_game(name, sheet=path)


def test_busstop_keeps_the_contents_without_comments(tmp_path):
    data = changed_data("busstop")
    path = write(tmp_path / "mine.json", {"_about": "my board", **data})
    game = bus_lab.load_game("busstop", sheet=path)
    assert game.params["sheet"] == data
    assert game == bus_lab.load_game("busstop", sheet={**data, "_x": 1})


def play(session: Session, steps: int) -> None:
    for _ in range(steps):
        if session.step() is None:
            break


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_session_replays_after_its_sheet_file_is_deleted(name, tmp_path):
    path = write(tmp_path / "mine.json", changed_data(name))
    session = Session(bus_lab.load_game(name, sheet=str(path)), seed=7, bots="random")
    play(session, 60)
    session.undo()
    saved = session.to_json()
    path.unlink()
    again = Session.from_json(saved)
    assert again.game == session.game
    assert again.state.history() == session.state.history() and again.position == session.position
    assert again.state.view(None) == session.state.view(None)
    assert again.state.returns() == session.state.returns()
    record = json.loads(json.dumps(session.state.to_dict()))
    assert bus_lab.state_from_dict(record).history() == session.state.history()


@pytest.mark.parametrize("name", GAMES)
def test_a_record_saved_with_a_path_still_loads_while_the_file_is_there(name, tmp_path):
    """Records saved before games kept the sheet's contents hold its path instead."""
    data = changed_data(name)
    path = write(tmp_path / "mine.json", data)
    game = bus_lab.load_game(name, sheet=data)
    session = Session(game, seed=3, bots="random")
    play(session, 40)
    old_session = json.loads(session.to_json())
    old_session["params"]["sheet"] = str(path)
    old_state = session.state.to_dict()
    old_state["params"] = {**old_state["params"], "sheet": str(path)}

    again = Session.from_json(json.dumps(old_session))
    assert again.game == game and again.state.history() == session.state.history()
    assert bus_lab.state_from_dict(old_state).history() == session.state.history()
    assert game.state_from_dict(old_state).history() == session.state.history()
    assert game.state_from_dict(session.state.to_dict()).history() == session.state.history()
    with pytest.raises(ValueError, match="params"):  # another sheet is still another game
        bus_lab.load_game(name).state_from_dict(old_state)

    os.unlink(path)
    with pytest.raises(ComponentSheetError, match=f"cannot read the component sheet file {str(path)!r}"):
        game.state_from_dict(old_state)


@pytest.mark.parametrize("name", GAMES)
def test_a_record_without_params_is_refused_as_another_game(name):
    game = bus_lab.load_game(name)
    with pytest.raises(ValueError, match="this dict has params None"):
        game.state_from_dict({"game": name, "history": []})
