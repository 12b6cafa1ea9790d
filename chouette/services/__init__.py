"""Use-cases: each loads what it needs, checks, writes, and commits once (or changes nothing).

Views call exactly one of these. Refusals are ``ServiceError`` (a ``ValueError``) whose message
a player can read; the app factory turns them into a flash message (or a 422 fragment for htmx).
One module per subject; this package re-exports them all as ``services.<name>``.
"""

from chouette.services.base import (  # noqa: F401
    AlreadySetUp,
    LoginRefused,
    NightClosed,
    NotFound,
    ServiceError,
    TableChanged,
    TooManyAttempts,
)
from chouette.services.display import (  # noqa: F401
    display_nights,
    display_version,
    last_event_mark,
)
from chouette.services.exports import (  # noqa: F401
    MAX_IMPORT_BYTES,
    ImportRefused,
    ImportTooLarge,
    SheetRow,
    TableSheet,
    check_night_export,
    import_night,
    ledger_csv,
    night_export,
    night_filename,
    night_ledger_totals,
    read_night_export,
    result_words,
    score_sheet,
    score_sheet_csv,
    table_export,
    table_sheet,
    to_json,
)
from chouette.services.facts import (  # noqa: F401
    display_name,
    table_facts,
)
from chouette.services.ledger import (  # noqa: F401
    CubeLine,
    GameLine,
    NightLedger,
    PlayerLedger,
    ledger_totals,
    night_balances,
    night_ledger,
    projected_totals,
)
from chouette.services.members import (  # noqa: F401
    LOCALES,
    MIN_PASSWORD_LENGTH,
    USERNAME_RE,
    authenticate,
    create_first_admin,
    create_member,
    end_session,
    get_member,
    list_members,
    needs_setup,
    normalize_username,
    session_member,
    set_locale,
    start_session,
    update_member,
)
from chouette.services.money import (  # noqa: F401
    MONEY_METHODS,
    CurrencyBalances,
    Iou,
    PlayerBalance,
    SettleUp,
    club_balances,
    night_payments,
    night_settle_up,
    outstanding_ious,
    pay_iou,
    record_payment,
    undo_last_payment,
)
from chouette.services.nights import (  # noqa: F401
    CURRENCY_RE,
    MAX_REOPEN_REASON,
    GameInProgress,
    GamesInProgress,
    NotYourNight,
    close_night,
    games_in_progress,
    get_night,
    list_nights,
    lock_night,
    may_close_night,
    may_reopen_night,
    night_reopenings,
    open_night,
    open_nights,
    reopen_night,
)
from chouette.services.players import (  # noqa: F401
    PlayerHistory,
    player_history,
    player_names,
)
from chouette.services.seasons import (  # noqa: F401
    SeasonSettleUp,
    SeasonStanding,
    close_season,
    create_season,
    get_season,
    is_settled_at_season,
    list_seasons,
    record_season_payment,
    season_filename,
    season_nights,
    season_of,
    season_payments,
    season_payments_csv,
    season_settle_up,
    season_standings_csv,
    undo_last_season_payment,
    usual_currency,
)
from chouette.services.sheet import (  # noqa: F401
    SheetGame,
    line_words,
    table_games,
)
from chouette.services.stored_facts import (  # noqa: F401
    clear_player_cache,
)
from chouette.services.tables import (  # noqa: F401
    PRESETS,
    SETTING_CHOICES,
    SETTING_RANGES,
    SNAPSHOTS_KEPT,
    TABLE_DEFAULTS,
    LedgerRow,
    add_snapshots,
    append_events,
    create_table,
    get_table,
    last_seq,
    normalize_match_settings,
    normalize_settings,
    preset_of,
    table_events,
    table_log,
)
