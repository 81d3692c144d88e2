#!/usr/bin/env bash
# Table Companion on a Raspberry Pi: install it, or upgrade it in place.
#
#   sudo deploy/install.sh [options]          (docs/deploy.md, step by step)
#
# Installs the system packages, the service user, the app in its own virtual
# environment (/opt/table-companion/venv), the configuration
# (/etc/table-companion/companion.conf) and the systemd service, and starts
# it. Run it again after `git pull` to upgrade: options left out keep their
# current values, only what differs is rewritten, and the service restarts
# only if something did. While a game is in progress it refuses to upgrade,
# unless --force (the game then resumes after the restart).
set -euo pipefail
shopt -s lastpipe       # `... | put FILE`: put runs here, and its record of changes stays

usage() {
    cat <<'EOF'
Usage: sudo deploy/install.sh [options]

  --port N                   the phones' port (default 80: http://<host>.local/)
  --public-url URL           the address the join codes show
                             (default http://<host name>.local/)
  --rotation 0|90|180|270    turn the picture (Touch Display 2 is portrait: 90)
  --touch mtdev|hidinput|sdl who reads the touchscreen (default mtdev)
  --pins FILE                a pin map for the header's buttons (hardware/gpio.md)
  --pad PORT|none            the button pad's serial port (default: found by itself)
  --dim-after SECONDS        dim the backlight after this long untouched (0: never)
  --data-dir DIR             the game store's directory (default /var/lib/table-companion)
  --access-point SSID        the Pi runs its own Wi-Fi network, named SSID
  --access-point-password P  its password (8 to 63 ASCII characters)
  --no-access-point          back to the café's Wi-Fi
  --force                    upgrade (or uninstall) even while a game is in progress
  --uninstall                remove the service, the app and its system settings;
                             the games and the settings stay in the data directory
  --root DIR                 write every file under DIR instead of / (tests; the
                             commands that change the running system still run,
                             so put stubs of them first on PATH)
  -h, --help                 this text
EOF
}

say() { echo "install: $*"; }
die() { echo "install: $*" >&2; exit 1; }

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVICE=table-companion.service
SERVICE_USER=companion
USER_GROUPS=(video render input gpio dialout audio)
mapfile -t PACKAGES < <(grep -v '^[[:space:]]*\(#\|$\)' "$SRC/deploy/packages.txt")
AP_CONNECTION=table-companion-ap
AP_FILE="/etc/NetworkManager/system-connections/$AP_CONNECTION.nmconnection"
AP_DNS=/etc/NetworkManager/dnsmasq-shared.d/table-companion.conf
AP_UUID=5c3e2a3e-7461-626c-6500-636f6d70616e     # fixed: a rerun rewrites nothing
AP_ADDRESS=10.42.0.1

CONF=/etc/table-companion/companion.conf
APP_DIR=/opt/table-companion
# The configuration's defaults, kept in step with deploy/companion-start.
DATA_DIR=/var/lib/table-companion
PORT=80
PUBLIC_URL=
PINS=
PAD=
# Kivy's mtdev reader: on KMS/DRM, SDL gives a touchscreen's touches to no
# window, so they never become the clicks Kivy reads (docs/deploy.md, §9).
TOUCH=mtdev
DIM_AFTER=0
ACCESS_POINT_SSID=
ACCESS_POINT_PASSWORD=

# -- the command line ---------------------------------------------------------------
ROOT=/
FORCE=no
UNINSTALL=no
ROTATION=
NEW_PINS=
declare -A given=()
while [ $# -gt 0 ]; do
    option="$1"
    case "$option" in
        -h|--help) usage; exit 0 ;;
        --force) FORCE=yes; shift; continue ;;
        --uninstall) UNINSTALL=yes; shift; continue ;;
        --no-access-point) given[ACCESS_POINT_SSID]=""; given[ACCESS_POINT_PASSWORD]=""
                           shift; continue ;;
    esac
    [ $# -ge 2 ] || die "$option needs a value (see --help)"
    value="$2"
    case "$option" in
        --root) ROOT="$value" ;;
        --port) given[PORT]="$value" ;;
        --public-url) given[PUBLIC_URL]="$value" ;;
        --rotation) ROTATION="$value" ;;
        --touch) given[TOUCH]="$value" ;;
        --pins) NEW_PINS="$value" ;;
        --pad) given[PAD]="$value" ;;
        --dim-after) given[DIM_AFTER]="$value" ;;
        --data-dir) given[DATA_DIR]="$value" ;;
        --access-point) given[ACCESS_POINT_SSID]="$value" ;;
        --access-point-password) given[ACCESS_POINT_PASSWORD]="$value" ;;
        *) die "unknown option $option (see --help)" ;;
    esac
    shift 2
done
ROOT="${ROOT%/}"                # "" for /, so "$ROOT/etc" is /etc
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root (sudo $0 ...)"
fi

# A 64-bit system only: Kivy publishes no wheel for 32-bit ARM (armhf), and a
# 32-bit Raspberry Pi OS may run a 64-bit kernel, so ask dpkg what userland
# this is, not only the kernel.
machine="$(uname -m)"
userland="$(dpkg --print-architecture 2>/dev/null || echo "$machine")"
case "$machine/$userland" in
    aarch64/arm64|x86_64/amd64) ;;
    *) die "this is a $userland system ($machine): Table Companion needs a 64-bit one,
arm64 (Raspberry Pi OS Lite 64-bit, on a Pi 4 or 5) or x86_64. Kivy, which draws
the kiosk, has no build for 32-bit ARM: install the 64-bit Raspberry Pi OS." ;;
esac

# The current configuration (an upgrade), then what the command line changes.
if [ -f "$ROOT$CONF" ]; then
    # shellcheck source=/dev/null
    . "$ROOT$CONF"
fi
INSTALLED_DATA_DIR="$DATA_DIR"      # where a game in progress would be (before --data-dir)
for key in "${!given[@]}"; do
    printf -v "$key" '%s' "${given[$key]}"
done
[ -n "$NEW_PINS" ] && PINS=/etc/table-companion/pins.toml

if ! [[ "$PORT" =~ ^[0-9]+$ ]] || [ "$PORT" -lt 1 ] || [ "$PORT" -gt 65535 ]; then
    die "--port must be a port number, not '$PORT'"
fi
[[ "$DIM_AFTER" =~ ^[0-9]+$ ]] || die "--dim-after must be whole seconds, not '$DIM_AFTER'"
case "$TOUCH" in sdl|mtdev|hidinput) ;; *) die "--touch must be sdl, mtdev or hidinput" ;; esac
case "$ROTATION" in ""|0|90|180|270) ;; *) die "--rotation must be 0, 90, 180 or 270" ;; esac
[[ "$DATA_DIR" == /* ]] || die "--data-dir must be an absolute path"
if [ -n "$NEW_PINS" ] && [ ! -r "$NEW_PINS" ]; then
    die "cannot read the pin map $NEW_PINS"
fi
# In the C locale, where a character is a byte and [:print:] is ASCII: under
# a UTF-8 locale "é" would pass, and a WPA passphrase is 8 to 63 ASCII
# characters (NetworkManager refuses others). No space at either end: the
# keyfile format drops it, and the phones' Wi-Fi QR would then not match.
matches() { local LC_ALL=C; [[ "$1" =~ $2 ]]; }
SSID_PATTERN='^[A-Za-z0-9._-]([A-Za-z0-9._ -]{0,30}[A-Za-z0-9._-])?$'
PASSWORD_PATTERN='^[[:graph:]][[:print:]]{6,61}[[:graph:]]$'
if [ -n "$ACCESS_POINT_SSID" ]; then
    if ! matches "$ACCESS_POINT_SSID" "$SSID_PATTERN"; then
        die "--access-point: 1 to 32 letters, digits, spaces, dots, dashes or underscores (no space first or last)"
    fi
    if ! matches "$ACCESS_POINT_PASSWORD" "$PASSWORD_PATTERN" ||
       [[ "$ACCESS_POINT_PASSWORD" == *\\* ]]; then
        die "--access-point-password: 8 to 63 ASCII printable characters, no backslash, no space first or last"
    fi
fi

VENV="$ROOT$APP_DIR/venv"
# The store the running kiosk uses: the installed configuration's, even when
# this run moves it elsewhere with --data-dir.
DB="$ROOT$INSTALLED_DATA_DIR/companion.sqlite3"

# -- never in the middle of a game ---------------------------------------------------
# Asked of the installed version, which knows its own store: from /, since
# `python -m` puts the current directory first on sys.path, and the current
# directory is usually this checkout, whose code is not the installed one.
if [ -x "$VENV/bin/python" ] && [ -f "$DB" ] && [ "$FORCE" = no ]; then
    status=0
    report="$(cd / && "$VENV/bin/python" -m companion status --db "$DB" 2>&1)" || status=$?
    case "$status" in
        0) ;;
        3) die "$report
Finish or end the game on the kiosk (Settings), then run this again; or run it
with --force: the service restarts and the game resumes where it stopped (an
uninstall keeps it in the data directory)." ;;
        *) die "cannot tell whether a game is in progress ($report); --force upgrades anyway" ;;
    esac
fi

changed=()      # every file written, for the summary and what must follow

# put PATH MODE < CONTENT: write $ROOT/PATH only if its content or mode
# differ; a new file is written beside the old, flushed, then put in its
# place and the directory flushed, so on ext4 a power cut leaves one or the
# other. (The boot partition is FAT, where a rename is not atomic: fsck
# repairs it at boot, and cmdline.txt is written once, on the first run.)
put() {
    local target="$ROOT$1" mode="$2" staged
    staged="$(mktemp)"
    cat > "$staged"
    if [ -f "$target" ] && cmp -s "$staged" "$target" &&
       [ "$(stat -c %a "$target")" = "$mode" ]; then
        rm -f "$staged"
        return 0
    fi
    install -D -m "$mode" "$staged" "$target.partial"
    rm -f "$staged"
    sync "$target.partial"
    mv -f "$target.partial" "$target"
    sync "$(dirname "$target")"
    changed+=("$1")
}

# drop PATH: remove $ROOT/PATH if it is there.
drop() {
    if [ -e "$ROOT$1" ]; then
        rm -f "$ROOT$1"
        changed+=("$1")
    fi
}

is_changed() {
    local file
    for file in "${changed[@]}"; do
        [ "$file" = "$1" ] && return 0
    done
    return 1
}

user_exists() { getent passwd "$SERVICE_USER" >/dev/null; }

# Files this installer writes outside the app's directory (an uninstall
# removes them all; the data directory and kernel's command line stay).
LOCKDOWN_LOGIND=/etc/systemd/logind.conf.d/table-companion.conf
LOCKDOWN_SYSCTL=/etc/sysctl.d/90-table-companion.conf
SYSTEM_FILES=("/etc/systemd/system/$SERVICE" /etc/udev/rules.d/70-table-companion.rules
              /etc/systemd/journald.conf.d/table-companion.conf "$LOCKDOWN_LOGIND"
              "$LOCKDOWN_SYSCTL" /etc/avahi/services/table-companion.service
              "$AP_FILE" "$AP_DNS" "$CONF" /etc/table-companion/pins.toml)

# -- uninstall ----------------------------------------------------------------------
if [ "$UNINSTALL" = yes ]; then
    say "removing the service, the app ($APP_DIR) and their system settings"
    systemctl disable --now "$SERVICE" || say "warning: the service did not stop cleanly"
    for file in "${SYSTEM_FILES[@]}"; do
        drop "$file"
    done
    rmdir "$ROOT/etc/table-companion" 2>/dev/null || true
    rm -rf "${ROOT:?}$APP_DIR"
    systemctl unmask ctrl-alt-del.target
    systemctl daemon-reload
    udevadm control --reload-rules
    if is_changed "$AP_FILE"; then
        nmcli connection reload || say "warning: nmcli connection reload failed"
    fi
    say "uninstalled. The games and the kiosk's settings stay in $DATA_DIR"
    say "  (to remove them too: sudo rm -r $DATA_DIR); so do the user $SERVICE_USER,"
    say "  the system packages and consoleblank=0 on the kernel's command line."
    say "  Reboot once to give the consoles (Ctrl+Alt+F1…F6) their logins and SysRq back."
    exit 0
fi

# -- system packages, the service user --------------------------------------------
say "system packages: ${PACKAGES[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -q update
apt-get -q install -y --no-install-recommends "${PACKAGES[@]}"

for group in "${USER_GROUPS[@]}"; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
member_of="$(IFS=,; echo "${USER_GROUPS[*]}")"
if user_exists; then
    usermod --append --groups "$member_of" "$SERVICE_USER"
else
    say "service user $SERVICE_USER (groups $member_of)"
    useradd --system --user-group --groups "$member_of" --home-dir "$DATA_DIR" \
            --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi

# -- the app, in its own virtual environment ---------------------------------------
# Exactly the pinned set of deploy/requirements.lock (every file's hash
# checked), then the app's own wheel built from this checkout with the
# locked setuptools (deploy/install-app); never an unpinned tree. Rebuilt
# only when what goes into it changed: its fingerprint.
APP_FILES=(pyproject.toml README.md LICENSE companion hardware/votepad
           deploy/requirements.lock deploy/install-app)
fingerprint() {
    (cd "$SRC" && find "${APP_FILES[@]}" -type f ! -path '*/__pycache__/*' -print0 |
        LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16
}
want="$(fingerprint)"
if [ "$(cat "$VENV/.installed" 2>/dev/null)" != "$want" ]; then
    say "installing the app ($want) into $APP_DIR/venv, from deploy/requirements.lock"
    "$SRC/deploy/install-app" "$VENV" "$SRC"
    echo "$want" > "$VENV/.installed"
    changed+=("$APP_DIR/venv")
fi
put "$APP_DIR/bin/companion-start" 755 < "$SRC/deploy/companion-start"
put "$APP_DIR/bin/drm-card" 755 < "$SRC/deploy/drm-card"

# -- the configuration -------------------------------------------------------------
setting() { printf '%s=%q\n' "$1" "$2"; }     # shell-quoted: companion-start sources it
[ -n "$NEW_PINS" ] && put /etc/table-companion/pins.toml 644 < "$NEW_PINS"
{
    echo "# Table Companion's configuration, read by $APP_DIR/bin/companion-start."
    echo "# Written by deploy/install.sh: run it again with options to change it"
    echo "# (or edit this file, then: sudo systemctl restart $SERVICE)."
    setting APP_DIR "$APP_DIR"
    setting DATA_DIR "$DATA_DIR"
    setting PORT "$PORT"
    setting PUBLIC_URL "$PUBLIC_URL"
    setting PINS "$PINS"
    setting PAD "$PAD"
    setting TOUCH "$TOUCH"
    setting DIM_AFTER "$DIM_AFTER"
    setting ACCESS_POINT_SSID "$ACCESS_POINT_SSID"
    setting ACCESS_POINT_PASSWORD "$ACCESS_POINT_PASSWORD"
} | put "$CONF" 640
put "/etc/systemd/system/$SERVICE" 644 < "$SRC/deploy/table-companion.service"
put /etc/udev/rules.d/70-table-companion.rules 644 < "$SRC/deploy/70-table-companion.rules"
put /etc/systemd/journald.conf.d/table-companion.conf 644 < "$SRC/deploy/journald.conf"
# Locked down (docs/deploy.md): no login starts on the other consoles, SysRq
# is off, and Ctrl+Alt+Del (below) reboots nothing.
put "$LOCKDOWN_LOGIND" 644 < "$SRC/deploy/logind.conf"
put "$LOCKDOWN_SYSCTL" 644 < "$SRC/deploy/sysctl.conf"
put /etc/avahi/services/table-companion.service 644 <<EOF
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Table Companion's phone server, advertised by deploy/install.sh. -->
<service-group>
  <name replace-wildcards="yes">Table Companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>$PORT</port>
  </service>
</service-group>
EOF

# The Pi's own access point (NetworkManager, shared mode: DHCP and DNS).
if [ -n "$ACCESS_POINT_SSID" ]; then
    put "$AP_FILE" 600 <<EOF
# Table Companion's own Wi-Fi network, written by deploy/install.sh.
[connection]
id=$AP_CONNECTION
uuid=$AP_UUID
type=wifi
interface-name=wlan0
autoconnect=true
autoconnect-priority=100

[wifi]
mode=ap
band=bg
ssid=$ACCESS_POINT_SSID

[wifi-security]
key-mgmt=wpa-psk
proto=rsn
pairwise=ccmp
group=ccmp
psk=$ACCESS_POINT_PASSWORD

[ipv4]
method=shared
address1=$AP_ADDRESS/24

[ipv6]
method=disabled
EOF
    put "$AP_DNS" 644 < "$SRC/deploy/access-point/dnsmasq.conf"
else
    drop "$AP_FILE"
    drop "$AP_DNS"
fi

# The screen: no console blanking (the kernel's command line, read at boot).
CMDLINE=/boot/firmware/cmdline.txt
if [ -f "$ROOT$CMDLINE" ]; then
    line="$(head -n 1 "$ROOT$CMDLINE")"
    if [[ " $line " =~ \ consoleblank=[0-9]+\  ]]; then
        line="$(echo "$line" | sed -E 's/(^| )consoleblank=[0-9]+( |$)/\1consoleblank=0\2/')"
    else
        line="$line consoleblank=0"
    fi
    echo "$line" | put "$CMDLINE" "$(stat -c %a "$ROOT$CMDLINE")"
fi

# The data directory (kept across upgrades), and the rotation the kiosk
# applies at start; the operator can change it later in the kiosk's settings.
mkdir -p "$ROOT$DATA_DIR"
if [ -n "$ROTATION" ]; then
    INI="$DATA_DIR/kiosk.ini"
    { cat "$ROOT$INI" 2>/dev/null || true; } | awk -v r="$ROTATION" '
        /^\[/ { if (kiosk && !done) { print "rotation = " r; done = 1 }
                kiosk = ($0 == "[kiosk]") }
        kiosk && /^rotation[ \t]*=/ { if (!done) print "rotation = " r; done = 1; next }
        { print }
        END { if (!done) { if (!kiosk) print "[kiosk]"; print "rotation = " r } }
    ' | put "$INI" 600                 # it holds the PIN and the Wi-Fi password
fi
if user_exists; then
    chown "$SERVICE_USER:" "$ROOT$DATA_DIR"
    [ -f "$ROOT$DATA_DIR/kiosk.ini" ] && chown "$SERVICE_USER:" "$ROOT$DATA_DIR/kiosk.ini"
    chgrp "$SERVICE_USER" "$ROOT$CONF"
fi

# -- what the changes need -----------------------------------------------------------
if is_changed "/etc/systemd/system/$SERVICE"; then
    systemctl daemon-reload
fi
systemctl enable "$SERVICE"
systemctl mask ctrl-alt-del.target
if [ "$(systemctl get-default)" = graphical.target ]; then
    say "booting to the console from now on (the kiosk needs the display to itself)"
    systemctl set-default multi-user.target
fi
if is_changed /etc/udev/rules.d/70-table-companion.rules; then
    udevadm control --reload-rules
    # The backlight and the GPIO chips are already there: replay their events
    # now (the rules match "change"), and wait for them before the kiosk
    # restarts and tries to dim or to read the buttons.
    udevadm trigger --action=change --subsystem-match=backlight --subsystem-match=gpio
    udevadm settle --timeout=10 || true
fi
if is_changed /etc/systemd/journald.conf.d/table-companion.conf; then
    systemctl restart systemd-journald
fi
if is_changed "$LOCKDOWN_SYSCTL"; then
    sysctl -q -p "$ROOT$LOCKDOWN_SYSCTL" || say "warning: sysctl could not turn SysRq off now"
fi
if [ ${#changed[@]} -eq 0 ]; then
    say "already up to date: nothing changed"
    exit 0
fi
say "changed: ${changed[*]}"
systemctl restart "$SERVICE"
if is_changed "$CMDLINE" || is_changed "$LOCKDOWN_LOGIND"; then
    say "reboot once to apply the kernel's command line and the consoles' settings (sudo reboot)"
fi
url="$PUBLIC_URL"
if [ -z "$url" ]; then
    url="http://$(hostname).local/"
    [ "$PORT" = 80 ] || url="http://$(hostname).local:$PORT/"
fi
say "the kiosk is starting; phones join at $url"

# The Wi-Fi last: bringing the access point up takes wlan0 off the café's
# network, and with it an SSH session over Wi-Fi. Everything else is done by
# now, and a failure here (no Wi-Fi country set, rfkill) must not stop it:
# NetworkManager brings the network up at the next boot anyway (autoconnect).
if is_changed "$AP_FILE" || is_changed "$AP_DNS"; then
    nmcli connection reload || say "warning: nmcli connection reload failed"
    if [ -n "$ACCESS_POINT_SSID" ]; then
        say "switching wlan0 to the access point '$ACCESS_POINT_SSID' (an SSH session over Wi-Fi ends here)"
        if ! nmcli connection up "$AP_CONNECTION"; then
            say "warning: the access point did not come up (is the Wi-Fi country set? rfkill list);"
            say "  it is tried again at every boot, or now with: sudo nmcli connection up $AP_CONNECTION"
        fi
    fi
fi
