"""Drives `stratus-mock drive` with Google's official Python client for the Drive API v3.

Usage: drive_sdk_check.py BASE_URL ACCESS_TOKEN REFRESH_TOKEN [SUMMARY_FILE]
       drive_sdk_check.py --after-restart BASE_URL ACCESS_TOKEN SUMMARY_FILE
(run-drive-sdk-check.sh does both). The first writes what it left (ids, contents, its last page
token) to SUMMARY_FILE; the second, run against the mock restarted on the same data folder,
checks that all of it is still there and that the old page token sees later changes.
The client is built from the discovery document it ships, with `rootUrl` pointed at the mock
(`api_endpoint` alone would keep uploads on https://); everything else is the client as users
run it: httplib2 transport, MediaIoBaseUpload (multipart and resumable), MediaIoBaseDownload.
"""
import hashlib
import io
import json
import sys

import google.oauth2.credentials
from googleapiclient.discovery import build_from_document
from googleapiclient.discovery_cache import get_static_doc
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload, MediaIoBaseUpload, build_http

after_restart = sys.argv[1] == "--after-restart"
if after_restart:
    base, token, summary_path = sys.argv[2], sys.argv[3], sys.argv[4]
else:
    base, token, refresh = sys.argv[1], sys.argv[2], sys.argv[3]
    summary_path = sys.argv[4] if len(sys.argv) > 4 else None
FOLDER = "application/vnd.google-apps.folder"


DISCOVERY = json.loads(get_static_doc("drive", "v3"))
DISCOVERY["rootUrl"] = DISCOVERY["mtlsRootUrl"] = base + "/"


def client(credentials):
    return build_from_document(DISCOVERY, credentials=credentials)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def expect_http_error(call, status, reason):
    try:
        call()
    except HttpError as error:
        details = error.error_details if isinstance(error.error_details, list) else []
        reasons = [d.get("reason") for d in details]
        if error.resp.status != status or reason not in reasons:
            fail(f"expected {status} {reason}, got {error.resp.status} {reasons}")
        print(f"  {status} {reason}: {error.reason}")
        return
    fail(f"expected {status} {reason}, but the call succeeded")


def check_after_restart():
    """What the first run left is there after a restart: files, contents, revisions, tokens."""
    with open(summary_path) as file:
        left = json.load(file)
    drive = client(google.oauth2.credentials.Credentials(token))
    for file_id, content in [(left["small"], left["small_content"]), (left["copy"], left["small_content"])]:
        meta = drive.files().get(fileId=file_id, fields="id,md5Checksum,parents").execute()
        assert meta["md5Checksum"] == hashlib.md5(content.encode()).hexdigest(), meta
        assert meta["parents"] == [left["folder"]], meta
        assert drive.files().get_media(fileId=file_id).execute() == content.encode()
    revisions = drive.revisions().list(fileId=left["small"], fields="revisions(id)").execute()["revisions"]
    assert [r["id"] for r in revisions] == left["revisions"], revisions
    names = sorted(f["name"] for f in drive.files().list(q=f"'{left['folder']}' in parents", fields="files(name)")
                   .execute()["files"])
    assert names == left["names"], names
    quiet = drive.changes().list(pageToken=left["page_token"]).execute()
    assert quiet["changes"] == [] and quiet["newStartPageToken"] == left["page_token"], quiet
    later = drive.files().create(body={"name": "after-restart.txt", "parents": [left["folder"]]},
                                 media_body=MediaIoBaseUpload(io.BytesIO(b"later"), mimetype="text/plain")).execute()
    seen = drive.changes().list(pageToken=left["page_token"], fields="changes(fileId)").execute()["changes"]
    assert [c["fileId"] for c in seen] == [later["id"]], seen
    print("after restart: files, contents, revisions, listing and page tokens survived; new change", later["id"])
    print("OK")


if after_restart:
    check_after_restart()
    sys.exit(0)

drive = client(google.oauth2.credentials.Credentials(token))
start = drive.changes().getStartPageToken().execute()["startPageToken"]
print("start page token", start)

folder = drive.files().create(body={"name": "SDK", "mimeType": FOLDER}, fields="id,mimeType").execute()
assert folder["mimeType"] == FOLDER, folder
print("folder", folder["id"])

small = drive.files().create(
    body={"name": "it's.txt", "parents": [folder["id"]], "appProperties": {"origin": "sdk"}},
    media_body=MediaIoBaseUpload(io.BytesIO(b"hello sdk"), mimetype="text/plain", resumable=False),
    fields="id,name,size,md5Checksum,headRevisionId,version,parents,appProperties",
).execute()
assert small["size"] == "9" and small["md5Checksum"] == hashlib.md5(b"hello sdk").hexdigest(), small
assert small["parents"] == [folder["id"]] and small["appProperties"] == {"origin": "sdk"}, small
assert isinstance(small["version"], str), small
print("multipart create", small["id"], small["size"], small["md5Checksum"])

big = bytes((i * 31 + 7) % 256 for i in range(1_300_000))
request = drive.files().create(
    body={"name": "big.bin", "parents": [folder["id"]]},
    media_body=MediaIoBaseUpload(io.BytesIO(big), mimetype="application/octet-stream", chunksize=256 * 1024, resumable=True),
    fields="id,size,md5Checksum,sha256Checksum",
)
response, chunks = None, 0
while response is None:
    status, response = request.next_chunk()
    chunks += 1
assert chunks == 5, chunks
assert response["size"] == str(len(big)), response
assert response["md5Checksum"] == hashlib.md5(big).hexdigest(), response
assert response["sha256Checksum"] == hashlib.sha256(big).hexdigest(), response
print("resumable create", response["id"], "in", chunks, "chunks")

buffer = io.BytesIO()
download = MediaIoBaseDownload(buffer, drive.files().get_media(fileId=response["id"]), chunksize=300 * 1024)
done, pieces = False, 0
while not done:
    _, done = download.next_chunk()
    pieces += 1
assert buffer.getvalue() == big and pieces == 5, (len(buffer.getvalue()), pieces)
print("get_media", len(buffer.getvalue()), "bytes in", pieces, "ranged pieces")

updated = drive.files().update(
    fileId=small["id"],
    media_body=MediaIoBaseUpload(io.BytesIO(b"second version"), mimetype="text/plain", resumable=True),
    fields="id,size,headRevisionId,version",
).execute()
assert updated["headRevisionId"] != small["headRevisionId"] and int(updated["version"]) > int(small["version"]), updated
assert drive.files().get_media(fileId=small["id"]).execute() == b"second version"
print("resumable update", updated["headRevisionId"])

for index in range(5):
    drive.files().create(
        body={"name": f"page-{index}.txt", "parents": [folder["id"]]},
        media_body=MediaIoBaseUpload(io.BytesIO(b"x" * index), mimetype="text/plain"),
    ).execute()
query = f"'{folder['id']}' in parents and trashed = false"
names, page_token, pages = [], None, 0
while True:
    page = drive.files().list(q=query, pageSize=2, pageToken=page_token, orderBy="name",
                              fields="nextPageToken,files(id,name)").execute()
    names += [f["name"] for f in page["files"]]
    pages += 1
    page_token = page.get("nextPageToken")
    if not page_token:
        break
assert names == sorted(names, key=str.lower) and len(names) == 7 and pages == 4, (names, pages)
print("list paged", pages, "pages:", names)
escaped = drive.files().list(q="name = 'it\\'s.txt' and trashed = false", fields="files(id)").execute()["files"]
assert [f["id"] for f in escaped] == [small["id"]], escaped
tagged = drive.files().list(q="appProperties has { key='origin' and value='sdk' }").execute()["files"]
assert [f["id"] for f in tagged] == [small["id"]], tagged
print("list q with escaped quote and appProperties: ok")

drive.files().delete(fileId=response["id"]).execute()
drive.files().update(fileId=folder["id"], body={"name": "SDK renamed"}).execute()
changes, page_token, pages = [], start, 0
while True:
    page = drive.changes().list(pageToken=page_token, pageSize=3,
                                fields="nextPageToken,newStartPageToken,changes(fileId,removed,file(name))").execute()
    changes += page["changes"]
    pages += 1
    if "newStartPageToken" in page:
        assert "nextPageToken" not in page, page
        break
    page_token = page["nextPageToken"]
removed = [c["fileId"] for c in changes if c["removed"]]
assert removed == [response["id"]], changes
assert len(changes) == 8 and pages == 3, (len(changes), pages)
print("changes", len(changes), "in", pages, "pages; removed:", removed)

revisions = drive.revisions().list(fileId=small["id"], fields="revisions(id,size,keepForever)").execute()["revisions"]
assert [r["id"] for r in revisions] == [small["headRevisionId"], updated["headRevisionId"]], revisions
old = drive.revisions().get_media(fileId=small["id"], revisionId=revisions[0]["id"]).execute()
assert old == b"hello sdk", old
pinned = drive.revisions().update(fileId=small["id"], revisionId=revisions[0]["id"], body={"keepForever": True}, fields="keepForever").execute()
assert pinned == {"keepForever": True}, pinned
drive.revisions().delete(fileId=small["id"], revisionId=revisions[1]["id"]).execute()
expect_http_error(lambda: drive.revisions().delete(fileId=small["id"], revisionId=revisions[0]["id"]).execute(), 400, "cannotDeleteOnlyRevision")
print("revisions", [r["id"] for r in revisions], "old content", old)

current = drive.files().get_media(fileId=small["id"]).execute()
copied = drive.files().copy(
    fileId=small["id"], body={"name": "copied.txt", "appProperties": {"copied": "yes"}},
    fields="id,name,parents,md5Checksum,size,headRevisionId,appProperties", keepRevisionForever=True,
).execute()
assert copied["id"] != small["id"] and copied["name"] == "copied.txt", copied
assert copied["parents"] == [folder["id"]], copied
assert copied["md5Checksum"] == hashlib.md5(current).hexdigest() and copied["size"] == str(len(current)), copied
assert copied["appProperties"] == {"origin": "sdk", "copied": "yes"}, copied
copy_revisions = drive.revisions().list(fileId=copied["id"], fields="revisions(id,keepForever)").execute()["revisions"]
assert copy_revisions == [{"id": copied["headRevisionId"], "keepForever": True}], copy_revisions
assert drive.files().get_media(fileId=copied["id"]).execute() == current
default_name = drive.files().copy(fileId=small["id"], body={"parents": ["root"]}, fields="name,parents").execute()
assert default_name["name"] == "Copy of it's.txt" and default_name["parents"] != [folder["id"]], default_name
expect_http_error(lambda: drive.files().copy(fileId=folder["id"], body={}).execute(), 403, "cannotCopyFile")
expect_http_error(lambda: drive.files().copy(fileId="no-such-file", body={}).execute(), 404, "notFound")
print("copy", copied["id"], copied["md5Checksum"], "and", default_name["name"])

expect_http_error(lambda: drive.files().get(fileId="no-such-file").execute(), 404, "notFound")
expect_http_error(lambda: drive.files().create(body={"name": "tab\there.txt", "parents": [folder["id"]]}).execute(), 400, "invalid")
expect_http_error(lambda: drive.files().list(q="name = 'unclosed").execute(), 400, "invalid")
# google-auth answers a 401 by refreshing, so read the bad-token answer with the client's own transport.
answer, content = build_http().request(base + "/drive/v3/files", "GET", headers={"Authorization": "Bearer ya29.nope"})
error = json.loads(content)["error"]
assert answer.status == 401 and "www-authenticate" in answer, answer
assert error["errors"][0]["reason"] == "authError" and error["status"] == "UNAUTHENTICATED", error
print("  401 authError:", error["message"][:60], "...")

refreshing = client(google.oauth2.credentials.Credentials(
    None, refresh_token=refresh, token_uri=base + "/token",
    client_id="stratus-test-client", client_secret="stratus-test-secret"))
count = len(refreshing.files().list(q=query).execute()["files"])
print("refresh-token client lists", count)

if summary_path:
    with open(summary_path, "w") as file:
        json.dump({
            "folder": folder["id"], "small": small["id"], "small_content": current.decode(), "copy": copied["id"],
            "revisions": [r["id"] for r in drive.revisions().list(fileId=small["id"]).execute()["revisions"]],
            "names": sorted(f["name"] for f in drive.files().list(q=query, fields="files(name)").execute()["files"]),
            "page_token": drive.changes().getStartPageToken().execute()["startPageToken"],
        }, file)
print("OK")
