"""The landscape board's geometry, in viewBox units: one place for the numbers its parts share.

Layout, in the side at the bottom's numbering: points 1..6 bottom right (their home board),
7..12 bottom left, 13..18 top left, 19..24 top right; the side at the bottom bears off into the
lower half of the tray on the right. The rail on the left holds both sides' names, pips and
every member's cube (``board_rail``).
"""

D = 50  # checker diameter
R = D // 2
PW = 56  # point width
PH = 5 * D  # point height: five checkers
MG = 90  # the gap between the top and bottom points
BW = 60  # bar width
F = 14  # frame
TW = 64  # tray width
RAIL = 170  # the rail on the left: names, pips, cubes
NR = 40  # the row of point numbers above and below the frame
HW = 6 * PW
IW = 2 * HW + BW
IH = 2 * PH + MG
BOARD_X = RAIL + F  # left of the playing area
BOARD_Y = NR + F  # top of the playing area
TRAY_X = BOARD_X + IW + F
WIDTH = TRAY_X + TW + F
HEIGHT = BOARD_Y + IH + F + NR
MID_Y = BOARD_Y + IH / 2
SLAB = 14  # height of one borne-off checker in the tray
DIE = 44
CUBE = 40

