"""Drives `stratus-mock dropbox` with the official Dropbox Python SDK.

Usage: dropbox_sdk_check.py BASE_URL ACCESS_TOKEN REFRESH_TOKEN CA_FILE (run-dropbox-sdk-check.sh
does it). The mock serves HTTPS (`stratus-mock dropbox --tls`); the SDK reaches it through its
host variables and trusts the mock's CA through its `ca_certs` option, exactly as a user would.
"""
import os, sys
base, token, refresh, ca = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
hostport = base.split("://", 1)[1]
for name in ("DROPBOX_API_HOST", "DROPBOX_API_CONTENT_HOST", "DROPBOX_API_NOTIFY_HOST"):
    os.environ[name] = hostport
import dropbox
from dropbox.files import WriteMode

session = dropbox.create_session(ca_certs=ca)
dbx = dropbox.Dropbox(oauth2_access_token=token, session=session)
meta = dbx.files_upload(b"hello sdk", "/SDK/Caf\u00e9.txt", mode=WriteMode.add)
print("upload", meta.rev, meta.content_hash, meta.size)
meta2 = dbx.files_upload(b"second", "/SDK/Caf\u00e9.txt", mode=WriteMode.overwrite)
try:
    dbx.files_upload(b"third", "/sdk/caf\u00e9.txt", mode=WriteMode.update(meta.rev))
    print("FAIL: stale update accepted"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_path() and e.error.get_path().reason.is_conflict(), e
    print("stale update ->", e.error)
md, resp = dbx.files_download("/sdk/CAF\u00c9.txt")
assert resp.content == b"second", resp.content
print("download", md.path_display, md.rev)
start = dbx.files_upload_session_start(b"a" * 10)
cursor = dropbox.files.UploadSessionCursor(session_id=start.session_id, offset=3)
try:
    dbx.files_upload_session_append_v2(b"b" * 5, cursor)
    print("FAIL: bad offset accepted"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    print("bad offset ->", e.error)
    cursor.offset = e.error.get_incorrect_offset().correct_offset
dbx.files_upload_session_append_v2(b"b" * 5, cursor)
cursor.offset = 15
fin = dbx.files_upload_session_finish(b"c", cursor, dropbox.files.CommitInfo(path="/SDK/session.bin"))
print("finish", fin.size)
listing = dbx.files_list_folder("", recursive=True, limit=2)
entries = list(listing.entries)
while listing.has_more:
    listing = dbx.files_list_folder_continue(listing.cursor)
    entries += listing.entries
print("list", sorted(e.path_display for e in entries))
dbx.files_delete_v2("/SDK/session.bin")
changes = dbx.files_list_folder_continue(listing.cursor)
print("changes", [(type(e).__name__, e.path_lower) for e in changes.entries])
revs = dbx.files_list_revisions("/SDK/caf\u00e9.txt")
print("revisions", [r.rev for r in revs.entries])
restored = dbx.files_restore("/SDK/caf\u00e9.txt", meta.rev)
print("restored", restored.rev)
try:
    dbx.files_get_metadata("/SDK/session.bin")
    print("FAIL: a deleted file still has metadata"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_path() and e.error.get_path().is_not_found(), e
    print("get_metadata deleted ->", e.error)
# Bad paths are refused as Dropbox's own malformed_path, which the SDK decodes.
for bad_path in ("/SDK/../escape.txt", "/SDK/tab\there.txt", "/SDK/trailing/"):
    try:
        dbx.files_upload(b"never", bad_path, mode=WriteMode.add)
        print("FAIL: a bad path was accepted:", repr(bad_path)); sys.exit(1)
    except dropbox.exceptions.ApiError as e:
        assert e.error.is_path() and e.error.get_path().reason.is_malformed_path(), e
    try:
        dbx.files_get_metadata(bad_path)
        print("FAIL: a bad path was looked up:", repr(bad_path)); sys.exit(1)
    except dropbox.exceptions.ApiError as e:
        assert e.error.is_path() and e.error.get_path().is_malformed_path(), e
print("bad paths -> malformed_path")
print("longpoll", dbx.files_list_folder_longpoll(changes.cursor, timeout=30))
bad = dropbox.Dropbox(oauth2_access_token="nope", session=session)
try:
    bad.files_list_folder("")
    print("FAIL: a bad token was accepted"); sys.exit(1)
except dropbox.exceptions.AuthError as e:
    print("bad token ->", e.error)
refreshing = dropbox.Dropbox(oauth2_refresh_token=refresh, app_key="stratus-test-client", app_secret="stratus-test-secret", session=session)
print("refresh-token client lists", len(refreshing.files_list_folder("").entries))

# A client that does not trust the mock's CA is refused by TLS, as against a spoofed host.
untrusting = dropbox.Dropbox(oauth2_access_token=token)
try:
    untrusting.files_list_folder("")
    print("FAIL: a client without the CA was served"); sys.exit(1)
except Exception as e:
    assert "SSL" in repr(e) or "certificate" in repr(e).lower(), repr(e)
    print("untrusted CA -> refused")
print("OK")
