"""Spreadsheets as students make them (tests/fixtures, written by testkit/sheet_files.py with
openpyxl and odfpy): the same points as their CSV, bit for bit, and hostile workbooks refused
before their XML is parsed."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.perceptron import perceptron
from core.trace import record
from datasets import loader, sheets
from datasets.loader import load_csv, read_table
from datasets.sheets import sheet_names, to_csv

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.mark.parametrize("name", ["exam.xlsx", "exam.ods"])
def test_a_workbook_gives_the_csvs_points_and_run_bit_for_bit(name):
    csv = load_csv(FIXTURES / "exam.csv")
    book = load_csv(FIXTURES / name)
    np.testing.assert_array_equal(book.X, csv.X)
    np.testing.assert_array_equal(book.y, csv.y)
    assert book.classes == csv.classes == ("Yes", "no")
    assert book.columns == csv.columns == ("Hours studied", "Hours slept")
    a, b = (record(perceptron(d.X, d.y, max_epochs=20)) for d in (csv, book))
    assert a.W.tobytes() == b.W.tobytes() and a.b.tobytes() == b.b.tobytes()
    # and as pandas reads the workbook with the same libraries (a formula's saved value)
    frame = pd.read_excel(FIXTURES / name, engine="openpyxl" if name.endswith("x") else "odf")
    np.testing.assert_array_equal(book.X, frame.iloc[:, :2].to_numpy(dtype=float))


def test_a_formula_cell_gives_its_saved_value():
    text = to_csv(fixture("exam.xlsx"))[0].decode()
    assert text.splitlines()[2] == "4;6.5;Yes"  # B3 is =A3+2.5, saved as 6.5


def test_an_empty_or_merged_header_cell_gets_its_column_letter():
    table = read_table(FIXTURES / "merged_header.xlsx")
    assert table.columns == ("Hours", "B", "Passed")


def test_several_sheets_are_listed_and_one_is_chosen_by_name():
    assert sheet_names(fixture("two_sheets.xlsx")) == ("Notes", "Exam")
    assert sheet_names(fixture("two_sheets.ods")) == ("Notes", "Exam", "Other")
    with pytest.raises(ValueError, match=r"^sheet 'Notes': the header \(row 1\) has 1 column"):
        read_table(FIXTURES / "two_sheets.xlsx")
    for name in ("two_sheets.xlsx", "two_sheets.ods"):
        data = read_table(FIXTURES / name, sheet="Exam").dataset()
        np.testing.assert_array_equal(data.X, load_csv(FIXTURES / "exam.csv").X)
    assert read_table(FIXTURES / "two_sheets.ods", sheet="Other").classes() == ("p", "q")
    with pytest.raises(ValueError, match=r"^this workbook has no sheet 'Nope'$"):
        read_table(FIXTURES / "two_sheets.ods", sheet="Nope")


def test_a_bad_cell_is_named_by_its_sheet_and_row():
    content = _xlsx([("x", "y", "label"), (1, 2, "a"), (3, "four", "b")])
    with pytest.raises(ValueError, match=r"^sheet 'Sheet': row 3, column 'y': 'four' is not a "
                                         r"number$"):
        load_csv(content)


def _xlsx(rows, title="Sheet") -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = title
    for row in rows:
        book.active.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _never_parsed(monkeypatch):
    """Fail if any XML of the workbook is parsed: refusals must come from the zip's directory
    (or the file's first bytes)."""

    def refuse(*args, **kwargs):
        raise AssertionError("the workbook's XML was parsed")

    monkeypatch.setattr(sheets, "iterparse", refuse)


@pytest.mark.parametrize(("name", "message"), [
    ("bomb.xlsx", r"^this workbook unpacks to 50 MB; the limit is 20 MB"),
    ("million_rows.xlsx", r"^this workbook unpacks to 91 MB; the limit is 20 MB"),
    ("protected.xlsx", r"^this is a password-protected \(encrypted\) workbook"),
])
def test_hostile_workbooks_are_refused_by_their_directory(name, message, monkeypatch):
    _never_parsed(monkeypatch)
    with pytest.raises(ValueError, match=message):
        load_csv(FIXTURES / name)


def test_an_encrypted_zip_part_and_a_zip_that_is_no_workbook_are_refused(monkeypatch):
    _never_parsed(monkeypatch)
    content = bytearray(fixture("exam.xlsx"))
    # set the "encrypted" flag of every part in the central directory (PK\1\2, flags at +8)
    at = content.find(b"PK\x01\x02")
    while at >= 0:
        content[at + 8] |= 1
        at = content.find(b"PK\x01\x02", at + 4)
    with pytest.raises(ValueError, match=r"^this workbook is password-protected"):
        load_csv(bytes(content))
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("notes.txt", "hello")
    with pytest.raises(ValueError, match=r"^this zip file is not a spreadsheet workbook"):
        load_csv(plain.getvalue())
    with pytest.raises(ValueError, match=r"^this workbook is damaged"):
        load_csv(fixture("exam.xlsx")[:-200])


def test_a_million_repeated_rows_of_an_ods_stop_at_the_row_limit():
    content = fixture("exam.ods")

    def repeat(data: bytes) -> bytes:  # the last row said a million times, in a few bytes
        last = data.rfind(b"<table:table-row")
        return data[:last + 16] + b' table:number-rows-repeated="1000000"' + data[last + 16:]

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(content)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            new.writestr(info, repeat(data) if info.filename == "content.xml" else data)
    with pytest.raises(ValueError, match=rf"^sheet 'Exam': more than {loader.MAX_ROWS} rows"):
        load_csv(out.getvalue())


def test_ten_thousand_columns_are_refused_naming_the_row():
    content = _xlsx([tuple(f"c{i}" for i in range(10_000)), tuple(range(10_000))])
    with pytest.raises(ValueError, match=r"^sheet 'Sheet': row 1 has more than 101 columns; "
                                         r"the limit is 100$"):
        load_csv(content)


def test_an_empty_sheet_and_markup_in_names_stay_text():
    with pytest.raises(ValueError, match=r"^sheet 'Sheet': the sheet is empty$"):
        load_csv(_xlsx([]))
    names = ("<b>x</b>", "[y](https://e.example)", "ثانية\u0301 🎓")
    data = load_csv(_xlsx([names, (1, 2, "a"), (3, 4, "b")]))
    assert data.columns == names[:2]


def test_the_limits_are_the_loaders():
    assert sheets.MAX_ROWS == loader.MAX_ROWS
    assert sheets.MAX_COLUMNS == loader.MAX_COLUMNS


# ------------------------------------------------------------------------ the sidebar

def _sidebar(at) -> str:
    from tests.apptest import shown

    return " ".join(shown(c.value) for c in at.sidebar.caption)


def test_a_workbook_uploads_and_its_data_sheet_is_found_past_a_sheet_of_notes():
    from tests.apptest import assert_clean, by_key, open_app, upload

    at = open_app()
    upload(at, "two_sheets.ods", fixture("two_sheets.ods"))
    assert_clean(at)
    assert not at.error
    data = at.session_state["data.user"]
    np.testing.assert_array_equal(data.X, load_csv(FIXTURES / "exam.csv").X)
    assert data.name == "two_sheets"
    version = at.session_state["data.user_version"]
    picker = by_key(at.selectbox, f"data.sheet.{version}")
    assert picker.options == ["Notes", "Exam", "Other"] and picker.value == "Exam"
    assert "'Yes' and 'yes' read as one class" in _sidebar(at)
    picker.set_value("Other").run()
    assert_clean(at)
    assert at.session_state["data.user"].classes == ("p", "q")
    version = at.session_state["data.user_version"]
    picker = by_key(at.selectbox, f"data.sheet.{version}")
    picker.set_value("Notes").run()
    assert_clean(at)
    from tests.apptest import shown

    said = " ".join(shown(e.value) for e in at.error)
    assert "two_sheets.ods: sheet 'Notes': the header (row 1) has 1 column" in said
    assert at.session_state["data.user"].classes == ("p", "q")  # the data are kept


def test_cells_pasted_from_a_spreadsheet_are_the_data():
    from tests.apptest import assert_clean, by_key, open_app

    at = open_app()
    pasted = "Hours studied\tHours slept\tPassed\n1,5\t7\tyes\n4\t6,5\tYes\n0,5\t8\tno\n"
    by_key(at.text_area, "data.paste").set_value(pasted)
    by_key(at.button, "data.paste_use").click().run()
    assert_clean(at)
    data = at.session_state["data.user"]
    # a spreadsheet in a comma-decimal locale copies decimal commas between tabs
    assert data.X.tolist() == [[1.5, 7.0], [4.0, 6.5], [0.5, 8.0]]
    assert data.columns == ("Hours studied", "Hours slept") and data.name == "Pasted cells"
    by_key(at.text_area, "data.paste").set_value("this is not a table")
    by_key(at.button, "data.paste_use").click().run()
    assert_clean(at)
    from tests.apptest import shown

    said = " ".join(shown(e.value) for e in at.error)
    assert said.startswith("Pasted cells.csv: the file has a header (row 1) but no data rows")
    assert at.session_state["data.user"].X.tolist() == data.X.tolist()


def test_a_part_declaring_a_doctype_is_refused_before_any_entity_is_expanded():
    laughs = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
              b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>')
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(fixture("exam.xlsx"))) as old, \
            zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = laughs + data[data.index(b"<worksheet"):].replace(
                    b"<v>1.5</v>", b"<v>&lol2;</v>")
            new.writestr(info, data)
    with pytest.raises(ValueError, match=r"declares a DOCTYPE, which no spreadsheet does"):
        load_csv(out.getvalue())


def test_a_sheets_row_numbers_follow_its_empty_rows():
    content = fixture("exam.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(content)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":  # the data from row 4 on
                for r in range(6, 0, -1):
                    data = data.replace(f'r="{r}"'.encode(), f'r="{r + 3}"'.encode())
                    data = data.replace(f'{r}"'.encode(), f'{r + 3}"'.encode())
                data = data.replace(b"<v>0.5</v>", b'<v>x</v>').replace(
                    b't="n"><v>x</v>', b't="str"><v>x</v>')
            new.writestr(info, data)
    with pytest.raises(ValueError, match=r"^sheet 'Exam': row 7, column 'Hours studied': 'x' "):
        load_csv(out.getvalue())
