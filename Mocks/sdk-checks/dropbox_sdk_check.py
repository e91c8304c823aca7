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

# Relocation and user routes
# A move keeps the file's id and revisions and shows in the change feed as the old path deleted and
# the new one added; a copy is a new file (new id) with the same content; create_folder_v2 and the
# asynchronous delete_batch, polled with delete_batch_check; the account and its space usage.
import time
from dropbox.common import UserRootInfo
from dropbox.files import DeleteArg
reloc_first = dbx.files_upload(b"reloc one", "/SDK/reloc/a.txt", mode=WriteMode.add)
reloc_second = dbx.files_upload(b"reloc two", "/SDK/reloc/a.txt", mode=WriteMode.overwrite)
reloc_cursor = dbx.files_list_folder_get_latest_cursor("/SDK", recursive=True).cursor
moved = dbx.files_move_v2("/SDK/reloc/a.txt", "/SDK/reloc/moved/B.txt").metadata
assert isinstance(moved, dropbox.files.FileMetadata), moved
assert moved.id == reloc_first.id and moved.rev == reloc_second.rev, moved
assert moved.path_display == "/SDK/reloc/moved/B.txt", moved
assert [r.rev for r in dbx.files_list_revisions(moved.id, mode=dropbox.files.ListRevisionsMode.id).entries] == [reloc_second.rev, reloc_first.rev]
feed = dbx.files_list_folder_continue(reloc_cursor).entries
assert {(type(e).__name__, e.path_lower) for e in feed} >= {("DeletedMetadata", "/sdk/reloc/a.txt"), ("FileMetadata", "/sdk/reloc/moved/b.txt")}, feed
print("move_v2", moved.path_display, "same id and revisions; feed", sorted((type(e).__name__, e.path_lower) for e in feed))
renamed = dbx.files_move_v2("/SDK/reloc/moved/B.txt", "/SDK/reloc/moved/b.txt").metadata
assert renamed.id == moved.id and renamed.name == "b.txt", renamed
copied = dbx.files_copy_v2("/SDK/reloc/moved", "/SDK/reloc/copy").metadata
assert isinstance(copied, dropbox.files.FolderMetadata), copied
copied_file = dbx.files_get_metadata("/SDK/reloc/copy/b.txt")
assert copied_file.id != moved.id and copied_file.content_hash == moved.content_hash, copied_file
assert dbx.files_download("/SDK/reloc/copy/b.txt")[1].content == b"reloc two"
print("copy_v2", copied.path_display, "new id", copied_file.id != moved.id)
try:
    dbx.files_move_v2("/SDK/reloc/copy/b.txt", "/SDK/reloc/moved/b.txt")
    print("FAIL: a move onto a file was accepted"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_to() and e.error.get_to().is_conflict() and e.error.get_to().get_conflict().is_file(), e
    print("move onto a file ->", e.error)
try:
    dbx.files_move_v2("/SDK/reloc", "/SDK/reloc/inner")
    print("FAIL: a folder was moved into itself"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_cant_move_folder_into_itself(), e
folder = dbx.files_create_folder_v2("/SDK/reloc/New Folder").metadata
assert isinstance(folder, dropbox.files.FolderMetadata) and folder.name == "New Folder", folder
try:
    dbx.files_create_folder_v2("/SDK/reloc/new folder")
    print("FAIL: a folder was created twice"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_path() and e.error.get_path().is_conflict() and e.error.get_path().get_conflict().is_folder(), e
print("create_folder_v2", folder.path_display, "then conflict/folder")
launch = dbx.files_delete_batch([DeleteArg("/SDK/reloc/copy"), DeleteArg("/SDK/reloc/missing.txt"), DeleteArg("/SDK/reloc/New Folder")])
assert launch.is_async_job_id(), launch
delete_checks = 1
status = dbx.files_delete_batch_check(launch.get_async_job_id())
while status.is_in_progress():
    assert delete_checks < 200, "delete_batch job never completed"
    time.sleep(0.05)
    status = dbx.files_delete_batch_check(launch.get_async_job_id())
    delete_checks += 1
assert status.is_complete(), status
outcomes = status.get_complete().entries
assert [e.is_success() for e in outcomes] == [True, False, True], outcomes
assert isinstance(outcomes[0].get_success().metadata, dropbox.files.FolderMetadata), outcomes[0]
assert outcomes[1].get_failure().is_path_lookup() and outcomes[1].get_failure().get_path_lookup().is_not_found(), outcomes[1]
print("delete_batch after", delete_checks, "checks:", [e.get_success().metadata.path_display if e.is_success() else str(e.get_failure()) for e in outcomes])
try:
    dbx.files_delete_batch_check("dbjid:no-such-job")
    print("FAIL: an unknown delete job was checked"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_invalid_async_job_id(), e
usage = dbx.users_get_space_usage()
assert usage.allocation.is_individual() and usage.allocation.get_individual().allocated > usage.used > 0, usage
print("space usage", usage.used, "of", usage.allocation.get_individual().allocated)
account = dbx.users_get_current_account()
assert len(account.account_id) == 40 and account.account_type.is_basic(), account
assert isinstance(account.root_info, UserRootInfo), account.root_info
assert account.root_info.root_namespace_id == account.root_info.home_namespace_id, account.root_info
print("account", account.account_id, account.name.display_name, account.email, "root", account.root_info.root_namespace_id)

# Batch commits
# Sessions started with close=True are committed together: finish_batch_v2 answers one result per
# entry, in order (a failed entry does not stop the others); the deprecated finish_batch answers a
# job id, polled with finish_batch_check. The mock serialises writes as Dropbox does: commits that
# overlap past two meet 429 too_many_write_operations, which the SDK decodes as a RateLimitError.
import threading, time
from dropbox.files import CommitInfo, UploadSessionCursor, UploadSessionFinishArg

def closed_session(data):
    started = dbx.files_upload_session_start(data, close=True)
    return UploadSessionCursor(session_id=started.session_id, offset=len(data))

batch_old = dbx.files_upload(b"v1", "/SDK/batch/existing.txt", mode=WriteMode.add)
dbx.files_upload(b"v2", "/SDK/batch/existing.txt", mode=WriteMode.overwrite)
batch_open = dbx.files_upload_session_start(b"still open").session_id
batch = dbx.files_upload_session_finish_batch_v2([
    UploadSessionFinishArg(closed_session(b"batch one"), CommitInfo(path="/SDK/batch/one.txt")),
    UploadSessionFinishArg(UploadSessionCursor(session_id=batch_open, offset=10), CommitInfo(path="/SDK/batch/open.txt")),
    UploadSessionFinishArg(closed_session(b"stale"), CommitInfo(path="/SDK/batch/existing.txt", mode=WriteMode.update(batch_old.rev))),
    UploadSessionFinishArg(closed_session(b"batch two!"), CommitInfo(path="/SDK/batch/two.txt")),
])
assert [e.is_success() for e in batch.entries] == [True, False, False, True], batch
assert batch.entries[0].get_success().path_display == "/SDK/batch/one.txt", batch.entries[0]
assert batch.entries[3].get_success().size == 10, batch.entries[3]
not_closed = batch.entries[1].get_failure()
assert not_closed.is_lookup_failed() and not_closed.get_lookup_failed().is_not_closed(), not_closed
stale = batch.entries[2].get_failure()
assert stale.is_path() and stale.get_path().is_conflict(), stale
print("finish_batch_v2", [e.get_success().name if e.is_success() else str(e.get_failure()) for e in batch.entries])

launch = dbx.files_upload_session_finish_batch([
    UploadSessionFinishArg(closed_session(b"async one"), CommitInfo(path="/SDK/batch/async-1.txt")),
    UploadSessionFinishArg(closed_session(b"async two!"), CommitInfo(path="/SDK/batch/async-2.txt")),
])
polls = 0
if launch.is_async_job_id():
    job = launch.get_async_job_id()
    status = dbx.files_upload_session_finish_batch_check(job)
    polls = 1
    while status.is_in_progress():
        assert polls < 200, "finish_batch job never completed"
        time.sleep(0.05)
        status = dbx.files_upload_session_finish_batch_check(job)
        polls += 1
    assert status.is_complete(), status
    job_entries = status.get_complete().entries
else:
    job_entries = launch.get_complete().entries
assert [e.is_success() for e in job_entries] == [True, True], job_entries
assert [e.get_success().size for e in job_entries] == [9, 10], job_entries
md, resp = dbx.files_download("/SDK/batch/async-2.txt")
assert resp.content == b"async two!", resp.content
print("finish_batch job", "async" if launch.is_async_job_id() else "complete", "after", polls, "checks:", [e.get_success().name for e in job_entries])
try:
    dbx.files_upload_session_finish_batch_check("dbjid:no-such-job")
    print("FAIL: an unknown job id was checked"); sys.exit(1)
except dropbox.exceptions.ApiError as e:
    assert e.error.is_invalid_async_job_id(), e
    print("finish_batch_check unknown ->", e.error)

# Twelve uploads at once from clients that do not retry a rate limit (each connected first, then
# all released together): any refused one must be Dropbox's too_many_write_operations with a
# 1-second backoff; each is then sent again.
refused, others = [], []
released = threading.Barrier(12)
def upload_at_once(index):
    impatient = dropbox.Dropbox(oauth2_access_token=token, session=dropbox.create_session(ca_certs=ca), max_retries_on_rate_limit=0)
    impatient.files_get_metadata("/SDK")
    released.wait()
    try:
        impatient.files_upload(b"burst %d" % index, "/SDK/burst/%d.txt" % index, mode=WriteMode.add)
    except dropbox.exceptions.RateLimitError as e:
        refused.append((index, e))
    except Exception as e:
        others.append((index, e))
threads = [threading.Thread(target=upload_at_once, args=(index,)) for index in range(12)]
for thread in threads: thread.start()
for thread in threads: thread.join()
assert not others, others
for index, e in refused:
    assert e.error is not None and e.error.reason.is_too_many_write_operations(), e.error
    assert e.backoff == 1, e.backoff
    dbx.files_upload(b"burst %d" % index, "/SDK/burst/%d.txt" % index, mode=WriteMode.add)
burst = dbx.files_list_folder("/SDK/burst").entries
assert len(burst) == 12, burst
print("concurrent uploads:", len(refused), "of 12 refused with too_many_write_operations (backoff 1 s), all stored after a retry")
print("OK")
