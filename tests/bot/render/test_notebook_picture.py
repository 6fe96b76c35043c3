"""The notebook picture: what a player looking at it on a phone would check."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bench.notebook_picture import classic_grid, forum_grid, largest_grid
from bot.render.board_picture import Rect
from bot.render.notebook_grid import Cell, Flag, Grid, Mark, Row, Section
from bot.render.notebook_picture import GREEN, PENCIL, RED, cell_boxes, layout, notebook_png

LIMIT = 200 * 1024
PLAYERS = ("Alice", "Bob", "Carol")
COLUMNS = (*PLAYERS, "Envelope")  # the envelope last, so the first three look alike


def _open(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def _grid(*rows: Row, columns: tuple[str, ...] = COLUMNS, title: str = "Notebook") -> Grid:
    legend = ((Mark.HAS, "holds"), (Mark.LACKS, "lacks"), (Flag.SOLVED, "envelope"))
    return Grid(title, columns, len(columns) - 1, (Section("Weapons", rows),), legend)


def _row(*cells: Cell, label: str = "Rope", solved: bool = False) -> Row:
    missing = len(COLUMNS) - len(cells)
    return Row(label, (*cells, *(Cell() for _ in range(missing))), solved)


def _inside(box: Rect) -> Rect:
    """The box less its rules (the lines between rows and columns)."""
    left, top, right, bottom = box
    return left + 2, top + 1, right - 2, bottom - 2


def _crops(grid: Grid) -> list[list[Image.Image]]:
    """Each cell of the drawn grid, cut out."""
    image = _open(notebook_png(grid))
    return [[image.crop(_inside(box)) for box in boxes] for boxes in cell_boxes(grid)]


def _colours(crop: Image.Image) -> set[tuple[int, int, int]]:
    found = set()
    for _, colour in crop.getcolors(crop.width * crop.height) or []:
        assert isinstance(colour, tuple)
        found.add((int(colour[0]), int(colour[1]), int(colour[2])))
    return found


def _near(crop: Image.Image, target: tuple[int, int, int], within: int = 40) -> bool:
    """Whether some pixel has about the target colour."""
    return any(
        all(abs(c - t) <= within for c, t in zip(colour, target, strict=True))
        for colour in _colours(crop)
    )


@pytest.mark.parametrize("make", [forum_grid, classic_grid, largest_grid])
def test_each_grid_decodes_small_and_fits_a_phone(make: Callable[[], Grid]) -> None:
    grid = make()
    png = notebook_png(grid)
    assert len(png) < LIMIT
    image = _open(png)
    width, height = image.size
    assert image.size == layout(grid).size
    assert 600 <= width <= 1280
    assert height <= 1400  # Telegram scales the longest grid to 1280 at most by a tenth
    assert 0.5 <= width / height <= 2


def test_the_largest_grid_is_under_200_kb() -> None:
    grid = largest_grid()
    assert len(grid.columns) == 12 and len(grid.rows) == 40
    assert all(cell.percent is not None for row in grid.rows for cell in row.cells)
    assert len(notebook_png(grid)) < LIMIT


def test_every_cell_box_lies_inside_the_picture_and_apart() -> None:
    grid = largest_grid()
    width, height = layout(grid).size
    boxes = [box for row in cell_boxes(grid) for box in row]
    assert len(boxes) == 40 * 12
    assert all(
        0 <= left < right <= width and 0 <= top < bottom <= height
        for left, top, right, bottom in boxes
    )
    assert len(set(boxes)) == len(boxes)
    first, second = cell_boxes(grid)[0][:2]
    assert first[2] <= second[0]


def _label_crop(grid: Grid, index: int) -> Image.Image:
    image = _open(notebook_png(grid))
    return image.crop(_inside(layout(grid).labels[index]))


def test_cyrillic_labels_render() -> None:
    cyrillic = _grid(_row(label="Свинцовая труба"), _row(label="Гаечный ключ"))
    blank = _grid(_row(label=""), _row(label=""))
    assert len(_colours(_label_crop(blank, 0))) == 1  # nothing written
    written = _label_crop(cyrillic, 0)
    assert _near(written, (30, 36, 48))  # the ink of the letters
    assert written.tobytes() != _label_crop(blank, 0).tobytes()
    assert _label_crop(cyrillic, 1).tobytes() != written.tobytes()


def test_cyrillic_column_names_render_level_or_slanted() -> None:
    short = _grid(_row(), columns=("Аня", "Борис", "Вера", "Конверт"))
    long = _grid(_row(), columns=("Александра Константиновна", "Б", "В", "Конверт"))
    blank = _grid(_row(), columns=("", "", "", ""))
    assert not layout(short).slanted and layout(long).slanted
    header = layout(short).header
    blank_header = _open(notebook_png(blank)).crop(header)
    assert _open(notebook_png(short)).crop(header).tobytes() != blank_header.tobytes()
    assert layout(long).names[0] == ("Александра", "Константиновна")


def test_holds_lacks_and_unknown_look_different() -> None:
    crops = _crops(_grid(_row(Cell(Mark.HAS), Cell(Mark.LACKS), Cell(Mark.MAYBE))))[0]
    has, lacks, unknown = (crop.tobytes() for crop in crops[:3])
    assert len({has, lacks, unknown}) == 3
    assert _near(crops[0], GREEN, 10) and not _near(crops[1], GREEN, 10)
    assert _near(crops[1], RED, 30) and not _near(crops[0], RED, 30)
    assert len(_colours(crops[2])) == 1  # unknown, no odds: an empty cell


def test_own_marks_look_unlike_proven_ones() -> None:
    row = _row(Cell(Mark.HAS), Cell(Mark.OWN_YES), Cell(Mark.OWN_MAYBE))
    lacking = _row(Cell(Mark.LACKS), Cell(Mark.OWN_NO), Cell(Mark.MAYBE))
    crops = _crops(_grid(row, lacking))
    assert crops[0][0].tobytes() != crops[0][1].tobytes()
    assert crops[1][0].tobytes() != crops[1][1].tobytes()
    for own in (crops[0][1], crops[0][2], crops[1][1]):
        assert _near(own, PENCIL, 10) and not _near(own, GREEN, 10)
    assert len({crops[0][1].tobytes(), crops[0][2].tobytes(), crops[1][1].tobytes()}) == 3


def test_the_own_hand_and_a_shown_card_stand_out_from_a_plain_hold() -> None:
    crops = _crops(
        _grid(_row(Cell(Mark.HAS), Cell(Mark.HAS, own_hand=True), Cell(Mark.HAS, seen=True)))
    )
    assert len({crop.tobytes() for crop in crops[0][:3]}) == 3


def test_percentages_appear_only_where_given_and_not_on_proven_cells() -> None:
    grid = _grid(
        _row(Cell(Mark.MAYBE, 40), Cell(Mark.MAYBE), Cell(Mark.MAYBE, 40)),
        _row(Cell(Mark.HAS, 40), Cell(Mark.HAS)),
        _row(Cell(Mark.LACKS, 70), Cell(Mark.LACKS)),
        _row(Cell(Mark.OWN_YES, 40), Cell(Mark.OWN_YES)),
    )
    crops = _crops(grid)
    assert len(_colours(crops[0][0])) > 2  # a tint and the figures
    assert len(_colours(crops[0][1])) == 1  # no odds given: nothing
    assert crops[0][0].tobytes() == crops[0][2].tobytes()
    assert crops[1][0].tobytes() == crops[1][1].tobytes()  # proven: the odds are not shown
    assert crops[2][0].tobytes() == crops[2][1].tobytes()
    assert crops[3][0].tobytes() != crops[3][1].tobytes()  # a pencil mark keeps its odds


def test_odds_are_tinted_by_how_likely() -> None:
    crops = _crops(_grid(_row(Cell(Mark.MAYBE, 10), Cell(Mark.MAYBE, 90))))[0]

    def middle_left(crop: Image.Image) -> tuple[int, int, int]:
        pixel = crop.getpixel((6, crop.height // 2))
        assert isinstance(pixel, tuple)
        return pixel[0], pixel[1], pixel[2]

    assert sum(middle_left(crops[1])) < sum(middle_left(crops[0]))  # the likelier, the warmer


def test_a_note_shows_in_its_cell() -> None:
    crops = _crops(_grid(_row(Cell(Mark.OWN_MAYBE, note="Bob"), Cell(Mark.OWN_MAYBE))))[0]
    assert crops[0].tobytes() != crops[1].tobytes()


def test_the_envelope_column_and_a_solved_row_are_highlighted() -> None:
    grid = _grid(_row(), _row(label="Dagger", solved=True), _row(label="Wrench"))
    image = _open(notebook_png(grid))
    crops = [[image.crop(_inside(box)) for box in boxes] for boxes in cell_boxes(grid)]
    assert crops[0][0].tobytes() != crops[0][3].tobytes()  # the envelope's column is tinted

    def end_of_label(row: int) -> set[tuple[int, int, int]]:
        """The colours of the label's right end, where no letter reaches."""
        _, top, right, bottom = layout(grid).labels[row]
        return _colours(image.crop((right - 6, top + 2, right - 2, bottom - 3)))

    assert end_of_label(1) != end_of_label(0) and end_of_label(1) != end_of_label(2)
    assert len(end_of_label(1)) == 1  # a solid band


def test_the_legend_and_footer_take_room_under_the_grid() -> None:
    bare = Grid("N", COLUMNS, 3, (Section("W", (_row(),)),))
    told = Grid("N", COLUMNS, 3, (Section("W", (_row(),)),), ((Mark.HAS, "holds"),), "Odds: exact")
    assert layout(told).size[1] > layout(bare).size[1]
    assert layout(told).cells == layout(bare).cells
    assert layout(told).footer == ("Odds: exact",)


def test_a_grid_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match="cells"):
        Grid("N", COLUMNS, 3, (Section("W", (Row("Rope", (Cell(),)),)),))
    with pytest.raises(ValueError, match="envelope"):
        Grid("N", COLUMNS, 4, ())
    with pytest.raises(ValueError, match="percent"):
        Cell(percent=101)
