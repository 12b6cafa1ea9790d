"""GNU Backgammon's analysis of board games: the queue of tables and the results per game.

Revision ID: a7c1e2d3f4b5
Revises: f6a7b8c9d0e1
Create Date: 2026-11-27 03:15:00
"""

import sqlalchemy as sa
from alembic import op

revision = "a7c1e2d3f4b5"
down_revision = "f6a7b8c9d0e1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_request",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("chouette_table.id",
                  name="fk_analysis_request_table_id_chouette_table"), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("worker", sa.String(80), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(2000), nullable=True),
    )
    op.create_table(
        "game_analysis",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("chouette_table.id",
                  name="fk_game_analysis_table_id_chouette_table"), nullable=False),
        sa.Column("night_id", sa.Integer(), sa.ForeignKey("night.id", name="fk_game_analysis_night_id_night"),
                  nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("decisions", sa.JSON(), nullable=False),
        sa.Column("analysed_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_game_analysis_table_id_number")),
    )
    op.create_index("ix_game_analysis_table_id", "game_analysis", ["table_id"])
    op.create_index("ix_game_analysis_night_id", "game_analysis", ["night_id"])
    op.create_table(
        "player_analysis",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game_analysis.id", ondelete="CASCADE",
                  name="fk_player_analysis_game_id_game_analysis"), nullable=False),
        sa.Column("night_id", sa.Integer(), sa.ForeignKey("night.id", name="fk_player_analysis_night_id_night"),
                  nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("member_id", sa.Integer(), sa.ForeignKey("member.id", name="fk_player_analysis_member_id_member"),
                  nullable=True),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("checker_error", sa.Float(), nullable=False),
        sa.Column("cube_decisions", sa.Integer(), nullable=False),
        sa.Column("cube_error", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_player_analysis_game_id_name")),
    )
    op.create_index("ix_player_analysis_game_id", "player_analysis", ["game_id"])
    op.create_index("ix_player_analysis_night_id", "player_analysis", ["night_id"])
    op.create_index("ix_player_analysis_member_id", "player_analysis", ["member_id"])


def downgrade() -> None:
    op.drop_table("player_analysis")
    op.drop_table("game_analysis")
    op.drop_table("analysis_request")
