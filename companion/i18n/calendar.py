"""The calendar a reader dates things by: Persian readers use the Solar
Hijri (Jalali) calendar, the others the Gregorian one."""

from __future__ import annotations

from datetime import date

# Days before each Gregorian month in a common year.
_DAYS_BEFORE = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)


def jalali(day: date) -> tuple[int, int, int]:
    """The Solar Hijri (year, month, day) of a Gregorian date, by the usual
    arithmetic (33-year cycles), exact for the years a table will see."""
    gy, gm, gd = day.year, day.month, day.day
    leap_year = gy + 1 if gm > 2 else gy
    days = (
        355666
        + 365 * gy
        + (leap_year + 3) // 4
        - (leap_year + 99) // 100
        + (leap_year + 399) // 400
        + gd
        + _DAYS_BEFORE[gm - 1]
    )
    year = -1595 + 33 * (days // 12053)
    days %= 12053
    year += 4 * (days // 1461)
    days %= 1461
    if days > 365:
        year += (days - 1) // 365
        days = (days - 1) % 365
    if days < 186:  # six months of 31 days, then of 30
        return year, 1 + days // 31, 1 + days % 31
    return year, 7 + (days - 186) // 30, 1 + (days - 186) % 30
