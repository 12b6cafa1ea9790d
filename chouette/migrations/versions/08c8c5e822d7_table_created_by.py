"""table created by: the member who created a table runs it (with the night's opener, admins)

Revision ID: 08c8c5e822d7
Revises: 7a1c0e5b9d20
Create Date: 2026-11-21 06:46:42.427883

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '08c8c5e822d7'
down_revision = '7a1c0e5b9d20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('chouette_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('created_by_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_chouette_table_created_by_id_member'), 'member', ['created_by_id'], ['id'])


def downgrade():
    with op.batch_alter_table('chouette_table', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_chouette_table_created_by_id_member'), type_='foreignkey')
        batch_op.drop_column('created_by_id')
