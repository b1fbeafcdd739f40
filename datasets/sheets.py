"""A spreadsheet workbook (.xlsx, .ods) as the CSV text the loader reads, within its limits.

A workbook is a zip of XML parts. Before any XML is parsed, the zip's directory is read and
the workbook refused when its parts would unpack to more than :data:`MAX_UNZIPPED` bytes (a
zip bomb says so in its directory, or lies there and is stopped by the same count while
unpacking), when a part is encrypted, or when it is no workbook at all. A password-protected
(encrypted) .xlsx is not a zip but an OLE container, refused by its first bytes.

The chosen sheet is then read a row at a time, its XML streamed by the standard library's
C parser (a part that declares a DOCTYPE is refused, so no entity is ever expanded; an
.ods's repeated rows and columns are never multiplied out beyond what the loader could
take), and written as CSV
separated by semicolons, one line per sheet row, so that the loader's messages name the
sheet's own row numbers. Reading stops at the loader's limits (:data:`MAX_ROWS` rows,
:data:`MAX_BYTES` of text), so a sheet of a million rows costs what its first rows cost.

A formula cell gives the value the spreadsheet saved with it; an empty or merged cell of a
header row gets its column letter, as the spreadsheet shows it.
"""

from __future__ import annotations

import csv
import html
import io
import re
import zipfile
from collections.abc import Iterator
from datetime import date, datetime, time
from xml.etree.ElementTree import ParseError, iterparse

from datasets.dialect import MAX_BYTES

MAX_ROWS = 20_000  # as datasets.loader.MAX_ROWS (imported there from here would be a circle)
MAX_COLUMNS = 100
MAX_UNZIPPED = 10 * MAX_BYTES  # the workbook's XML, all parts: ten times the CSV limit
MAX_PARTS = 2_000
ZIP = b"PK\x03\x04"
OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted .xlsx, or an old .xls
_ODS = "application/vnd.oasis.opendocument.spreadsheet"
_SAVE = "save it from your spreadsheet as .xlsx, .ods or CSV"

_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"


def kind(content: bytes) -> str | None:
    """``"xlsx"``, ``"ods"`` or None (not a workbook: text for the CSV reader).

    Raises
    ------
    ValueError
        For an encrypted or old binary workbook, or a zip that is no workbook.
    """
    if content.startswith(OLE):
        raise ValueError("this is a password-protected (encrypted) workbook or an old .xls "
                         f"file, which cannot be read here: {_SAVE}, without a password")
    if not content.startswith(ZIP):
        return None
    with _opened(content) as book:
        names = set(book.namelist())
        if "xl/workbook.xml" in names:
            return "xlsx"
        if "content.xml" in names and "mimetype" in names:
            with book.open("mimetype") as part:
                if part.read(100).decode("ascii", "replace").strip() == _ODS:
                    return "ods"
    raise ValueError(f"this zip file is not a spreadsheet workbook: {_SAVE}")


def _opened(content: bytes) -> zipfile.ZipFile:
    """The workbook's zip, refused by its directory before anything is unpacked."""
    try:
        book = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile:
        raise ValueError(f"this workbook is damaged (not a complete zip file): {_SAVE}") from None
    parts = book.infolist()
    if len(parts) > MAX_PARTS:
        raise ValueError(f"this workbook has {len(parts):,} parts; a spreadsheet has a few dozen")
    if any(part.flag_bits & 0x1 for part in parts):
        raise ValueError("this workbook is password-protected (encrypted): "
                         f"{_SAVE}, without a password")
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_UNZIPPED:
        raise ValueError(f"this workbook unpacks to {unpacked / 1e6:,.0f} MB; the limit is "
                         f"{MAX_UNZIPPED / 1e6:g} MB (about {MAX_ROWS:,} rows of a few columns)")
    return book


class _Capped(io.RawIOBase):
    """A zip part read through a count: more than its share of MAX_UNZIPPED stops it (a zip
    whose directory understates its sizes)."""

    def __init__(self, part, budget: int):
        self.part, self.left = part, budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.part.read(min(len(buffer), 1 << 16))
        self.left -= len(data)
        if self.left < 0:
            raise ValueError(f"this workbook unpacks to more than {MAX_UNZIPPED / 1e6:g} MB; "
                             "the limit")
        buffer[:len(data)] = data
        return len(data)


def sheet_names(content: bytes) -> tuple[str, ...]:
    """The workbook's sheets, in order (empty for text)."""
    found = kind(content)
    if found == "xlsx":
        return tuple(name for name, _ in _xlsx_sheets(_opened(content)))
    if found == "ods":
        return tuple(_ods_names(content))
    return ()


def to_csv(content: bytes, sheet: str | None = None) -> tuple[bytes, str | None]:
    """The sheet as CSV bytes for the loader, and the sheet's name (None for text).

    Parameters
    ----------
    content : bytes
        The uploaded file.
    sheet : str, optional
        The sheet to read; the first by default.

    Returns
    -------
    (bytes, str or None)
        ``content`` itself and None when it is no workbook.

    Raises
    ------
    ValueError
        Naming the sheet and what is wrong (none of that name, empty, too large, damaged).
    """
    found = kind(content)
    if found is None:
        return content, None
    if found == "xlsx":
        book = _opened(content)
        parts = dict(_xlsx_sheets(book))
        name = _pick(list(parts), sheet)
        rows = _xlsx_rows(book, parts[name], _xlsx_strings(book))
    else:
        name, rows = _ods_table(content, sheet)
    try:
        return _write(rows, name), name
    except ValueError as error:
        raise ValueError(f"sheet {name!r}: {error}") from None


def _pick(names: list[str], sheet: str | None) -> str:
    if sheet is not None and sheet not in names:
        raise ValueError(f"this workbook has no sheet {sheet!r}")
    if not names:
        raise ValueError("this workbook has no sheets")
    if sheet is None:
        return names[0]
    if sheet not in names:
        raise ValueError(f"this workbook has no sheet {sheet!r}")
    return sheet


def _write(rows: Iterator[list], name: str) -> bytes:
    """Rows of cell values as CSV separated by semicolons, stopped at the loader's limits."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    data = 0
    header_done = False
    for line, row in enumerate(rows, start=1):
        cells = [_text(value) for value in row]
        while cells and cells[-1] == "":
            cells.pop()
        if len(cells) > MAX_COLUMNS + 1:  # read no further than this: more, we know not how many
            raise ValueError(f"row {line} has more than {MAX_COLUMNS + 1} columns; the limit is "
                             f"{MAX_COLUMNS}")
        if cells and not header_done:
            header_done = True
            if any(c and _is_text(v) for c, v in zip(cells, row, strict=False)):
                # a header row: an empty (or merged-over) name is the column's letter
                cells = [c or _letter(i) for i, c in enumerate(cells)]
        elif cells:
            data += 1
            if data > MAX_ROWS:
                raise ValueError(f"more than {MAX_ROWS} rows; the limit is {MAX_ROWS}")
        writer.writerow(cells)
        if out.tell() > MAX_BYTES:
            raise ValueError(f"its cells come to more than {MAX_BYTES / 1e6:g} MB of text; "
                             f"the limit is {MAX_BYTES / 1e6:g} MB")
    text = out.getvalue()
    if not text.strip("\n;"):
        raise ValueError("the sheet is empty")
    return text.encode("utf-8")


def _is_text(value) -> bool:
    return isinstance(value, str)


def _letter(index: int) -> str:
    """A spreadsheet's column letter: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _text(value) -> str:
    """A cell's value as the CSV holds it: numbers in full (repr), booleans true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value)


# ------------------------------------------------------------------------- the XML parts


def _events(book: zipfile.ZipFile, name: str, events=("end",)):
    """A part's XML events, streamed by the C parser through the unpacked-size count.

    A part that declares a DOCTYPE is refused: a spreadsheet's parts never do, and without
    one there are no entities to expand (expat bounds amplification besides) and nothing
    outside the part is ever read.
    """
    part = io.BufferedReader(_Capped(book.open(name), MAX_UNZIPPED))
    if b"<!DOCTYPE" in part.peek(1024)[:1024].upper():
        raise ValueError(f"this workbook's part {name} declares a DOCTYPE, which no "
                         f"spreadsheet does: {_SAVE}")
    try:
        yield from iterparse(part, events=events)
    except ParseError as error:
        raise ValueError(f"this workbook is damaged ({name}: {error}): {_SAVE}") from None


# ------------------------------------------------------------------------------ .xlsx

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def _xlsx_sheets(book: zipfile.ZipFile) -> list[tuple[str, str]]:
    """Each sheet's name and its part, in the workbook's order."""
    targets = {}
    if "xl/_rels/workbook.xml.rels" in book.namelist():
        for _, element in _events(book, "xl/_rels/workbook.xml.rels"):
            if element.tag == f"{_PKG}Relationship":
                target = element.get("Target", "")
                targets[element.get("Id")] = (target.lstrip("/") if target.startswith("/")
                                              else f"xl/{target}")
    sheets = []
    for _, element in _events(book, "xl/workbook.xml"):
        if element.tag == f"{_MAIN}sheet":
            part = targets.get(element.get(f"{_REL}id"), "")
            sheets.append((element.get("name", f"Sheet{len(sheets) + 1}"), part))
    return sheets


def _xlsx_strings(book: zipfile.ZipFile) -> list[str]:
    """The shared strings, each the text of its runs (phonetic hints left out)."""
    if "xl/sharedStrings.xml" not in book.namelist():
        return []
    strings = []
    for _, element in _events(book, "xl/sharedStrings.xml"):
        if element.tag == f"{_MAIN}si":
            hints = _phonetic(element)
            strings.append("".join(t.text or "" for t in element.iter(f"{_MAIN}t")
                                   if t not in hints))
            element.clear()
    return strings


def _phonetic(si) -> set:
    return {t for ph in si.iter(f"{_MAIN}rPh") for t in ph.iter(f"{_MAIN}t")}


def _column(reference: str) -> int:
    """A cell reference's column from 0: B7 -> 1, AA1 -> 26."""
    number = 0
    for char in reference:
        if not char.isalpha():
            break
        number = number * 26 + ord(char.upper()) - 64
    return number - 1


def _xlsx_rows(book: zipfile.ZipFile, part: str, strings: list[str]) -> Iterator[list]:
    """Each row's values (a formula's saved value), the sheet's empty rows as empty lists."""
    if part not in book.namelist():
        raise ValueError(f"this workbook is damaged (no part {part}): {_SAVE}")
    expected = 1
    for _, element in _events(book, part):
        if element.tag != f"{_MAIN}row":
            continue
        number = int(element.get("r") or expected)
        if number > expected:
            if number - expected > 2 * MAX_ROWS:
                raise ValueError(f"data past row {2 * MAX_ROWS:,}; the limit is {MAX_ROWS:,} "
                                 "rows")
            yield from ([] for _ in range(number - expected))
        expected = number + 1
        cells: list = []
        for cell in element:
            if cell.tag != f"{_MAIN}c":
                continue
            at = _column(cell.get("r", "")) if cell.get("r") else len(cells)
            if at > MAX_COLUMNS + 1:
                cells.extend([None] * (MAX_COLUMNS + 2 - len(cells)))
                cells.append("")  # more than the limit: _write names the row
                break
            cells.extend([None] * (at - len(cells)))
            cells.append(_xlsx_value(cell, strings))
        element.clear()
        yield cells


def _xlsx_value(cell, strings: list[str]):
    kind_ = cell.get("t", "n")
    value = cell.find(f"{_MAIN}v")
    text = value.text if value is not None else None
    if kind_ == "inlineStr":
        return "".join(t.text or "" for t in cell.iter(f"{_MAIN}t"))
    if text is None:
        return None
    if kind_ == "s":
        try:
            return strings[int(text)]
        except (ValueError, IndexError):
            raise ValueError(f"this workbook is damaged (cell {cell.get('r')}): "
                             f"{_SAVE}") from None
    if kind_ == "b":
        return text.strip() == "1"
    if kind_ == "n":
        return _number(text)
    return text  # "str" (a formula's text), "e" (an error such as #DIV/0!), "d" (a date)


def _number(text: str):
    """A saved number as the spreadsheet wrote it: an integer stays one, else a float."""
    try:
        number = float(text)
    except (TypeError, ValueError):
        return text
    plain = number.is_integer() and not any(c in text for c in ".eE")
    return int(number) if plain else number


# ------------------------------------------------------------------------------- .ods


_TABLE_NAME = re.compile(rb"<table:table\s[^>]*?table:name=\"([^\"]*)\"")


def _ods_names(content: bytes) -> list[str]:
    """The tables' names, found in the content part's bytes (no XML event per cell)."""
    book = _opened(content)
    data = io.BufferedReader(_Capped(book.open("content.xml"), MAX_UNZIPPED)).read()
    return [html.unescape(name.decode("utf-8", "replace")) for name in _TABLE_NAME.findall(data)]


def _ods_table(content: bytes, sheet: str | None) -> tuple[str, Iterator[list]]:
    """The table of that name (the first by default) and its rows, streamed."""
    names = _ods_names(content)
    name = _pick(names, sheet)
    events = _events(_opened(content), "content.xml")
    return name, _ods_rows(events, names.index(name))


def _ods_rows(events, index: int) -> Iterator[list]:
    """The rows of the table ``index`` (from 0), repeats counted but never multiplied out
    past the loader's limits."""
    blank = 0  # empty rows not yet written: only written when data follows them
    table = 0
    for _, element in events:
        if element.tag == f"{_TABLE}table":
            if table == index:
                return
            table += 1
            element.clear()
            continue
        if element.tag != f"{_TABLE}table-row":
            continue
        if table != index:
            element.clear()
            continue
        cells = []
        for cell in element:
            if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                continue
            repeat = int(cell.get(f"{_TABLE}number-columns-repeated", "1") or 1)
            value = _ods_value(cell)
            if value is None and repeat > MAX_COLUMNS:
                repeat = 1  # a run of empty cells to the sheet's edge
            cells.extend([value] * min(repeat, MAX_COLUMNS + 2 - len(cells)))
            if len(cells) >= MAX_COLUMNS + 2:
                break
        repeat = int(element.get(f"{_TABLE}number-rows-repeated", "1") or 1)
        element.clear()
        if not any(value is not None for value in cells):
            blank += repeat
            continue
        if blank:
            if blank > 2 * MAX_ROWS:
                raise ValueError(f"data past row {2 * MAX_ROWS:,}; the limit is {MAX_ROWS:,} "
                                 "rows")
            yield from ([] for _ in range(blank))
            blank = 0
        for _ in range(min(repeat, MAX_ROWS + 2)):
            yield cells


def _ods_value(cell):
    """A cell's value: its number, boolean or date as saved (a formula's too), else its text."""
    kind_ = cell.get(f"{_OFFICE}value-type")
    if kind_ in ("float", "percentage", "currency"):
        text = cell.get(f"{_OFFICE}value")
        try:
            number = float(text)
        except (TypeError, ValueError):
            return text
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() \
            else number
    if kind_ == "boolean":
        return cell.get(f"{_OFFICE}boolean-value") == "true"
    if kind_ == "date":
        return cell.get(f"{_OFFICE}date-value")
    if kind_ == "time":
        return cell.get(f"{_OFFICE}time-value")
    paragraphs = ["".join(p.itertext()) for p in cell.iter(f"{_TEXT}p")]
    text = "\n".join(paragraphs)
    return text if text else None
