"""An uploaded CSV file as text: its size, its encoding, its lines, its separator and its cells.

Everything here reads only as far as its answer needs, so that a file that
is refused at row 1 costs what row 1 costs:

* the bytes are decoded a block at a time (about 64 KiB, cut after a line
  end), when a line of the block is first asked for; a NUL byte refuses the
  block, and a byte that is not UTF-8 refuses the row that holds it, once
  the rows before it have been read;
* lines that hold nothing (blank, separators only, or in a file separated by
  spaces, ``#`` comments) are passed over by a regular expression, in C, and
  never reach a Python loop;
* the separator is chosen from the first line that holds something (or, when
  that line is a ``#`` comment, from the first of the next
  :data:`SNIFF_LINES` lines that is not one);
* the rows are split as they are read (:func:`records`).

:class:`Text` counts the lines it hands out (``lines_read``) and the bytes it
has decoded (``bytes_decoded``).
"""

from __future__ import annotations

import codecs
import csv
import math
import os
import re
from collections.abc import Callable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import BinaryIO, NamedTuple

MAX_BYTES = 2_000_000
BLOCK = 1 << 16  # bytes decoded at a time (up to the next line end)
SNIFF_LINES = 1_000  # lines past a leading "#" line looked at for the separator

# Tried in this order: a semicolon line may hold decimal commas, and a tab
# line may hold either, so the comma must come last.
DELIMITERS = ("\t", ";", ",")
WHITESPACE = " "  # stands for "runs of spaces and tabs", as np.loadtxt reads
_SEP_LINE = re.compile(r'^"?sep=(.)"?$', re.IGNORECASE)

_MB = 1_000_000
_SAVE_AS = "(save it from your spreadsheet as 'CSV UTF-8')"
_LINE_END = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_END = re.compile(rb"\r\n|\r|\n")
# A character that makes its line hold something, before the separator is known.
_SOMETHING = re.compile(r"[^\s;,]")
# In a file separated by spaces: a line whose first character other than a
# space is not "#", here or after the next line end.
_DATA_HERE = re.compile(r"[^\S\r\n]*[^\s#]")
_DATA_NEXT = re.compile(r"[\r\n][^\S\r\n]*[^\s#]")
# The last comment line in a stretch of blank and comment lines that names
# something after its "#" (np.savetxt's header: "# x1 x2 label").
_LAST_NAMED = re.compile(r"(?s:.*)(?:^|(?<=[\r\n]))[^\S\r\n]*#([^\r\n]*?\S[^\r\n]*)")


class Line(NamedTuple):
    """One line that holds something.

    ``comment`` is, in a file separated by spaces, the last comment line
    that names something in the stretch of blank and comment lines just
    above: its row and its words; else None.
    """

    row: int
    text: str
    comment: tuple[int, list[str]] | None = None


class Text:
    """A file's bytes, decoded a block at a time as its lines are asked for.

    Parameters
    ----------
    content : bytes
        The whole file (at most :data:`MAX_BYTES`); a UTF-8 BOM is skipped.

    Attributes
    ----------
    lines_read : int
        Lines handed out by :meth:`lines` so far (lines passed over as
        holding nothing are not counted: a regular expression skips them).
    bytes_decoded : int
        Bytes of the file decoded so far (up to the bad byte in a block that
        has one).
    """

    def __init__(self, content: bytes):
        self._content = content
        self._next = len(codecs.BOM_UTF8) if content.startswith(codecs.BOM_UTF8) else 0
        self._blocks: list[tuple[str, bool]] = []  # (text, whether a bad byte ends it)
        self.lines_read = 0
        self.bytes_decoded = 0

    def _block(self, index: int) -> tuple[str, bool] | None:
        """Return block ``index``, decoding the blocks up to it; None past the end."""
        content = self._content
        while len(self._blocks) <= index:
            start = self._next
            if start >= len(content):
                return None
            nul = content.find(b"\x00", start, start + BLOCK)  # binary: known from its start
            if nul < 0:
                found = _BYTE_LINE_END.search(content, start + BLOCK)
                end = found.end() if found else len(content)
                nul = content.find(b"\x00", start + BLOCK, end)
            if nul >= 0:
                self.bytes_decoded += nul + 1 - start
                raise ValueError(f"this is not a text CSV file: it contains NUL bytes {_SAVE_AS}")
            raw = content[start:end]
            self._next = end
            try:
                text, bad = raw.decode("utf-8"), False
            except UnicodeDecodeError as error:  # a line end is never inside a character
                text, bad = raw[: error.start].decode("utf-8"), True
                end = start + error.start + 1
            self.bytes_decoded += end - start
            self._blocks.append((text, bad))
        return self._blocks[index]

    def lines(self, mode: str | None = None) -> Iterator[Line]:
        """Yield the lines that hold something, with their line numbers, in order.

        Parameters
        ----------
        mode : str, optional
            The separator the lines will be split at (as :func:`sniff`
            returns it): a line of nothing but whitespace and that separator
            holds nothing, and with :data:`WHITESPACE` neither does a line
            whose first character other than a space is ``#``. Without it,
            a line of nothing but whitespace, commas and semicolons holds
            nothing.

        Raises
        ------
        ValueError
            At a block with a NUL byte, or at the row holding a byte that is
            not UTF-8, once the lines before it have been handed out.
        """
        find = _finder(mode)
        comments = mode == WHITESPACE
        row, index = 1, 0
        comment = None  # the last naming comment since the last line handed out
        while (block := self._block(index)) is not None:
            text, bad = block
            index += 1
            pos = 0
            while pos < len(text):
                start = find(text, pos)
                if start > pos:
                    if comments and text.find("#", pos, start) >= 0:
                        comment = _last_named(text, pos, start, row) or comment
                    row += _line_ends(text, pos, start)
                    pos = start
                if pos == len(text):
                    break
                found = _LINE_END.search(text, pos)
                if found is None and bad:
                    break  # the line the bad byte is on
                end = found.end() if found else len(text)
                self.lines_read += 1
                yield Line(row, text[pos:end], comment)
                comment = None
                row += 1
                pos = end
            if bad:
                raise ValueError(f"this is not a text CSV file: row {row} is not UTF-8 text "
                                 f"{_SAVE_AS}")


def _finder(mode: str | None) -> Callable[[str, int], int]:
    """Return f(text, pos): where the first line at or after pos that holds something starts."""
    if mode == WHITESPACE:
        def find(text: str, pos: int) -> int:
            if _DATA_HERE.match(text, pos):
                return pos
            found = _DATA_NEXT.search(text, pos)
            return found.start() + 1 if found else len(text)
        return find
    if mode is None:
        something = _SOMETHING
    elif mode.isspace():
        something = re.compile(r"\S")
    else:
        something = re.compile(rf"[^\s{re.escape(mode)}]")

    def find_line(text: str, pos: int) -> int:
        found = something.search(text, pos)
        if found is None:
            return len(text)
        at = found.start()
        before = max(text.rfind("\n", pos, at), text.rfind("\r", pos, at))
        return pos if before < 0 else before + 1
    return find_line


def _line_ends(text: str, start: int, end: int) -> int:
    """The number of line ends (CR, LF or CRLF) in text[start:end]."""
    return (text.count("\n", start, end) + text.count("\r", start, end)
            - text.count("\r\n", start, end))


def _last_named(text: str, start: int, end: int, row: int) -> tuple[int, list[str]] | None:
    """The last comment line naming something in text[start:end] (row ``row`` at start)."""
    found = _LAST_NAMED.match(text, start, end)
    if found is None:
        return None
    return row + _line_ends(text, start, found.start(1)), found.group(1).split()


def sniff(text: Text) -> tuple[str, int | None]:
    """Return the separator and the row of Excel's ``sep=`` line (None without one).

    The first line that holds something is either ``sep=;`` (naming the
    separator) or the line the separator is found from (:func:`_detect`);
    when it is a ``#`` comment, the first line that is not one, among the
    next :data:`SNIFF_LINES`, is used instead.

    Raises
    ------
    ValueError
        "the file is empty" when no line holds anything.
    """
    lines = text.lines()
    first = next(lines, None)
    if first is None:
        raise ValueError("the file is empty")
    sep = _SEP_LINE.match(first.text.strip(" \r\n"))
    if sep:
        return sep.group(1), first.row
    probe = next((line.text for line in islice(chain([first], lines), SNIFF_LINES + 1)
                  if not line.text.lstrip().startswith("#")), first.text)
    return _detect(probe), None


def _detect(line: str) -> str:
    """Return the separator of the first data row.

    The first of tab, semicolon, comma that splits it into three or more
    cells, else runs of whitespace if they do, else the first that makes
    two cells (the message then says three are needed).
    """
    counts = {}
    for delimiter in (*DELIMITERS, WHITESPACE):
        try:
            counts[delimiter] = len(cells(line, delimiter))
        except csv.Error:  # a cell over the csv module's size limit; records() reports it
            counts[delimiter] = 0
    for enough in (3, 2):
        found = next((d for d, count in counts.items() if count >= enough), None)
        if found is not None:
            return found
    return ","


def cells(line: str, delimiter: str) -> list[str]:
    """Split one line with the csv module (quotes allowed), or at whitespace."""
    if delimiter == WHITESPACE:
        return line.split()
    return next(csv.reader([line.rstrip("\r\n")], delimiter=delimiter), [])


def records(text: Text, delimiter: str, skip: int | None = None) -> Iterator[tuple[int, list]]:
    """Yield (line number, stripped cells) for each row read, as it is read.

    A row may be all empty cells (``"",""``); the caller passes over those.
    ``skip`` is the row of a ``sep=`` line. With :data:`WHITESPACE`
    (np.savetxt's format) ``#`` starts a comment, and the comment line just
    above a row, when it names as many columns, is yielded before it (the
    header ``# x1 x2 label``).

    Raises
    ------
    ValueError
        Naming the row of an unclosed quote or of a cell the csv module
        cannot read, or as :meth:`Text.lines`.
    """
    if delimiter == WHITESPACE:
        for line in text.lines(WHITESPACE):
            if line.row == skip:
                continue
            row_cells = line.text.split("#", 1)[0].split()
            if line.comment is not None and len(line.comment[1]) == len(row_cells):
                yield line.comment
            yield line.row, row_cells
        return
    handed: list[int] = []  # the rows the csv module has taken for the record it is reading

    def feed() -> Iterator[str]:
        for line in text.lines(delimiter):
            if line.row != skip:
                handed.append(line.row)
                yield line.text

    reader = csv.reader(feed(), delimiter=delimiter, skipinitialspace=True)
    while True:
        handed.clear()
        try:
            row_cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ValueError(f"row {handed[0]} cannot be read as CSV: {error}") from None
        # Numbers and labels never hold a line break: this is an unclosed quote.
        if len(handed) > 1 or (row_cells and row_cells[-1][-1:] in ("\n", "\r")):
            raise ValueError(f"row {handed[0]}: a quoted cell runs past the end of the line; "
                             'check its quotes (")')
        yield handed[0], list(map(str.strip, row_cells))


def read_capped(source: str | os.PathLike[str] | bytes | BinaryIO) -> tuple[bytes, str]:
    """Return the source's bytes and its file name without the extension ("" if unknown).

    Refuses a source over :data:`MAX_BYTES` before reading it when its size
    is known, else after reading one byte more than that.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        check_size(memoryview(source).nbytes)
        return bytes(source), ""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        check_size(os.stat(path).st_size)
        # The file may have grown since the stat, or be a pipe that reports 0.
        with open(path, "rb") as file:
            content = file.read(MAX_BYTES + 1)
        check_size(len(content), known=False)
        return content, path.stem
    if hasattr(source, "read"):
        size = _announced_size(source)
        if size is not None:
            check_size(size)
        content = source.read(MAX_BYTES + 1)
        if isinstance(content, str):
            raise TypeError("open the file in binary mode ('rb'), not text mode")
        check_size(len(content), known=False)
        file_name = getattr(source, "name", None)
        return bytes(content), Path(file_name).stem if isinstance(file_name, str) else ""
    raise TypeError(
        f"source must be a path, bytes or a binary file object, not {type(source).__name__}"
    )


def _announced_size(file: BinaryIO) -> int | None:
    """Return the bytes left in the file without reading them, or None if it cannot tell."""
    size = getattr(file, "size", None)  # Streamlit's UploadedFile knows it
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    try:
        if file.seekable():
            here = file.tell()
            end = file.seek(0, os.SEEK_END)
            file.seek(here)
            return end - here
    except (AttributeError, OSError, ValueError):
        pass
    return None


def check_size(size: int, *, known: bool = True) -> None:
    """Refuse a file over MAX_BYTES; ``known=False`` when only a capped read saw it."""
    if size <= MAX_BYTES:
        return
    limit = f"{MAX_BYTES / _MB:g} MB"
    # Rounded up, so a file just over the limit never reads as "2.0 MB".
    shown = f"{math.ceil(size / (_MB / 10)) / 10:.1f} MB" if known else f"more than {limit}"
    raise ValueError(f"the file is {shown}; the limit is {limit}")
