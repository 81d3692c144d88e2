#!/usr/bin/env bash
# The café fleet's broker credentials (docs/cafe.md, "Setting up the broker").
#
#   fleet-credentials.sh add-table NAME      a table's user: NAME is its table name
#   fleet-credentials.sh add-console         the operator console's user
#   fleet-credentials.sh add-homeassistant   Home Assistant's user (optional)
#   fleet-credentials.sh remove NAME         take a user off the broker
#   fleet-credentials.sh new-action-key FILE the café's action key (console and tables)
#
# Each add makes a random password, puts its hash in Mosquitto's password
# file (mosquitto_passwd) and writes the password itself, alone on the first
# line, to CREDENTIALS_DIR/NAME.password (mode 0600): copy that file to the
# table and give it as --fleet-password-file. Adding a user again gives it a
# new password. Reload the broker afterwards (systemctl reload mosquitto).
#
# Where (environment): FLEET_PASSWORD_FILE (default
# /etc/mosquitto/companion.passwd), FLEET_CREDENTIALS_DIR (default
# /etc/mosquitto/companion-credentials), MOSQUITTO_PASSWD (default
# mosquitto_passwd from PATH).
set -euo pipefail

PASSWORD_FILE="${FLEET_PASSWORD_FILE:-/etc/mosquitto/companion.passwd}"
CREDENTIALS_DIR="${FLEET_CREDENTIALS_DIR:-/etc/mosquitto/companion-credentials}"
MOSQUITTO_PASSWD="${MOSQUITTO_PASSWD:-mosquitto_passwd}"
# companion/fleet/topics.py's rule: one topic level, a user name and a Home
# Assistant node id at once.
NAME_RULE='^[A-Za-z0-9_-]{1,64}$'
# The ACL's own users: as table names they would share a branch with them.
RESERVED=(console homeassistant)

die() { echo "fleet-credentials: $*" >&2; exit 2; }
usage() { sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

need() {
    command -v "$1" >/dev/null 2>&1 || die "$1 is missing (apt-get install $2)"
}

# A file only its owner may read, and the broker's user when run as root
# (Debian's mosquitto reads its password file as "mosquitto" on a reload).
private() {
    chmod 0600 "$1"
    if [ "$(id -u)" -eq 0 ] && [ "$1" = "$PASSWORD_FILE" ] && id mosquitto >/dev/null 2>&1; then
        chown mosquitto: "$1"
    fi
}

add_user() {
    local name="$1" password secret
    need openssl openssl
    need "$MOSQUITTO_PASSWD" mosquitto
    umask 077
    mkdir -p "$CREDENTIALS_DIR" "$(dirname "$PASSWORD_FILE")"
    chmod 0700 "$CREDENTIALS_DIR"
    [ -e "$PASSWORD_FILE" ] || : >"$PASSWORD_FILE"
    private "$PASSWORD_FILE"
    # 32 hex digits: 128 random bits, and no character a shell or file mangles.
    password="$(openssl rand -hex 16)"
    "$MOSQUITTO_PASSWD" -b "$PASSWORD_FILE" "$name" "$password"
    private "$PASSWORD_FILE"
    secret="$CREDENTIALS_DIR/$name.password"
    printf '%s\n' "$password" >"$secret"
    chmod 0600 "$secret"
    echo "fleet-credentials: $name's password is in $secret; reload the broker"
}

check_table_name() {
    local name="$1" reserved
    [[ "$name" =~ $NAME_RULE ]] \
        || die "$name: a table name is 1 to 64 letters, digits, '-' or '_'"
    for reserved in "${RESERVED[@]}"; do
        [ "$name" != "$reserved" ] || die "$name: that name is the broker's $reserved user"
    done
}

remove_user() {
    local name="$1"
    [[ "$name" =~ $NAME_RULE ]] || die "$name: no such user name"
    need "$MOSQUITTO_PASSWD" mosquitto
    if [ ! -f "$PASSWORD_FILE" ] || ! grep -q "^$name:" "$PASSWORD_FILE"; then
        die "$name is not in $PASSWORD_FILE"
    fi
    "$MOSQUITTO_PASSWD" -D "$PASSWORD_FILE" "$name"
    private "$PASSWORD_FILE"
    rm -f "$CREDENTIALS_DIR/$name.password"
    echo "fleet-credentials: $name removed; reload the broker"
}

new_action_key() {
    local file="$1"
    need openssl openssl
    # A new key silences every table until it has the new one too: never by accident.
    [ ! -e "$file" ] || die "$file exists; remove it first to make a new key"
    umask 077
    mkdir -p "$(dirname "$file")"
    openssl rand -hex 32 >"$file"
    chmod 0600 "$file"
    echo "fleet-credentials: the action key is in $file; give it to the console and every table"
}

[ $# -ge 1 ] || usage
command="$1"
shift
case "$command" in
    add-table)
        [ $# -eq 1 ] || usage
        check_table_name "$1"
        add_user "$1"
        ;;
    add-console)
        [ $# -eq 0 ] || usage
        add_user console
        ;;
    add-homeassistant)
        [ $# -eq 0 ] || usage
        add_user homeassistant
        ;;
    remove)
        [ $# -eq 1 ] || usage
        remove_user "$1"
        ;;
    new-action-key)
        [ $# -eq 1 ] || usage
        new_action_key "$1"
        ;;
    *) usage ;;
esac
