"""Coup: Rebellion G54 on the shared claim / challenge / block engine: the
same machinery as Coup, with five of 25 characters (see ``sets``)."""
from ..coup.engine import ClaimEngine
from .sets import DEFAULTS, catalog, check_options, choose_set, ruleset_for

ENGINE = ClaimEngine("g54", catalog(), ruleset_for, defaults=DEFAULTS,
                     check_options=check_options, choose_set=choose_set)
