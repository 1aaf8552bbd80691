#!/usr/bin/env bash
# Installs the Debian tools the test suite calls, if any is missing: jing (Atom RELAX NG), xmllint (libxml2-utils)
# a real feed consumer (python3-feedparser), openssl (the WebSub tests make their own CA), Chromium (the browser
# tests drive it with playwright-core; playwright's own browser download cannot work here) and the PostgreSQL server
# (scripts/postgres.mjs starts a throwaway cluster with its initdb and pg_ctl), and nginx (the multi-node test puts a
# real load balancer in front of three nodes) and Prometheus (a real server scrapes the service; promtool lints the
# exposition). Run by `npm test`, so one command tests a fresh machine.
set -euo pipefail
need=()
command -v jing >/dev/null || need+=(jing)
command -v xmllint >/dev/null || need+=(libxml2-utils)
/usr/bin/python3 -c 'import feedparser' 2>/dev/null || need+=(python3-feedparser)
command -v openssl >/dev/null || need+=(openssl)
[ -x /usr/bin/chromium ] || need+=(chromium)
pg_bin="$(pg_config --bindir 2>/dev/null || true)"
if ! { [ -x "$pg_bin/initdb" ] && [ -x "$pg_bin/pg_ctl" ]; } && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  need+=(postgresql)
fi
[ -x /usr/sbin/nginx ] || need+=(nginx)
command -v promtool >/dev/null || need+=(prometheus)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing test tools: ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
