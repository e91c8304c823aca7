"""Drives `stratus-mock onedrive --tls` with Microsoft's official Graph SDK for Python (msgraph-sdk).

Usage: onedrive_sdk_check.py GRAPH_BASE_URL ACCESS_TOKEN CA_FILE CONTROL_TOKEN
(run-onedrive-sdk-check.sh does this). GRAPH_BASE_URL is the mock's Graph host as
https://localhost:PORT; the mock hands out download and upload-session URLs on its content host
under 127.0.0.1, another host name, as Graph hands them out on other domains.

The SDK is used as users run it: GraphServiceClient over GraphRequestAdapter with the default
middleware (retry, redirect, ...), an httpx client trusting the mock's CA, and a static bearer
token through an AccessTokenProvider whose allowed hosts are the Graph host only, so the
pre-authenticated URLs get no Authorization (the check reads the mock's request log to prove it;
the mock, like Graph, would ignore one). Large files go up with msgraph_core's
LargeFileUploadTask, with fragments of 4 x 320 KiB, then again over the same path in six
fragments of 320 KiB with no conflictBehavior (Graph replaces the file) and a fileSystemInfo.
Items are renamed and moved with PATCH and copied with POST /copy, whose monitor URL (read with
kiota's headers-inspection option) reports the copy's id. Exits non-zero on any mismatch.
"""
import asyncio
import base64
import datetime
import hashlib
import io
import json
import ssl
import sys
import time
import urllib.request
from urllib.parse import urlparse

import httpx
from kiota_abstractions.api_error import APIError
from kiota_abstractions.authentication import (
    AccessTokenProvider,
    AllowedHostsValidator,
    BaseBearerTokenAuthenticationProvider,
)
from kiota_abstractions.base_request_configuration import RequestConfiguration
from kiota_http.middleware.options import HeadersInspectionHandlerOption
from msgraph import GraphRequestAdapter, GraphServiceClient
from msgraph.graph_request_adapter import options as graph_options
from msgraph.generated.drives.item.items.item.create_upload_session.create_upload_session_post_request_body import (
    CreateUploadSessionPostRequestBody,
)
from msgraph.generated.drives.item.items.item.copy.copy_post_request_body import CopyPostRequestBody
from msgraph.generated.models.drive_item import DriveItem
from msgraph.generated.models.file_system_info import FileSystemInfo
from msgraph.generated.models.item_reference import ItemReference
from msgraph.generated.models.drive_item_uploadable_properties import DriveItemUploadableProperties
from msgraph.generated.models.folder import Folder
from msgraph.generated.models.o_data_errors.o_data_error import ODataError
from msgraph_core import GraphClientFactory
from msgraph_core.tasks.large_file_upload import LargeFileUploadTask

base, token, ca_file, control_token = sys.argv[1:5]
host = urlparse(base).hostname
FRAGMENT = 4 * 320 * 1024


class StaticToken(AccessTokenProvider):
    """A fixed bearer token for the Graph host only."""

    def __init__(self):
        self.validator = AllowedHostsValidator([host])

    async def get_authorization_token(self, uri, additional_authentication_context=None):
        return token if self.validator.is_url_host_valid(uri) else ""

    def get_allowed_hosts_validator(self):
        return self.validator


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def quick_xor(data):
    """QuickXorHash, bit by bit (a check independent of the mock's)."""
    bits = bytearray(20)
    for index, byte in enumerate(data):
        start = (index * 11) % 160
        for bit in range(8):
            if byte & (1 << bit):
                position = (start + bit) % 160
                bits[position // 8] ^= 1 << (position % 8)
    length = len(data)
    for index in range(12, 20):
        bits[index] ^= length & 0xFF
        length >>= 8
    return base64.b64encode(bytes(bits)).decode()


def control(path, body=None, method="POST"):
    """A request to the mock's control routes (urllib, not the SDK): the status, and the body."""
    context = ssl.create_default_context(cafile=ca_file)
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + control_token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, context=context) as response:
        return response.status, response.read()


def logged_requests(prefix):
    """The requests the mock logged whose path starts with `prefix` (both hosts share one log)."""
    _, body = control("/__stratus/requests", method="GET")
    return [entry for entry in json.loads(body)["requests"] if entry["path"].startswith(prefix)]


def header(entry, name):
    return next((h["value"] for h in entry["headers"] if h["name"].lower() == name), None)


def pattern(size, seed):
    block = hashlib.sha256(str(seed).encode()).digest()
    return (block * (size // len(block) + 1))[:size]


async def main():
    started = time.monotonic()
    # The SDK's own middleware options (they turn /users/me-token-to-replace into /me).
    http = GraphClientFactory.create_with_default_middleware(
        client=httpx.AsyncClient(verify=ca_file, timeout=60), options=graph_options
    )
    adapter = GraphRequestAdapter(BaseBearerTokenAuthenticationProvider(StaticToken()), http)
    adapter.base_url = base + "/v1.0"
    client = GraphServiceClient(request_adapter=adapter)

    drive = await client.me.drive.get()
    expect(drive.id and drive.drive_type == "personal", f"the drive: {drive.id} {drive.drive_type}")
    print(f"drive {drive.id}: {drive.drive_type}, quota {drive.quota.total} bytes")
    items = client.drives.by_drive_id(drive.id).items

    # The app folder.
    app = await client.drives.by_drive_id(drive.id).special.by_drive_item_id("approot").get()
    expect(app.special_folder and app.special_folder.name == "approot", "special/approot is the app folder")
    print(f"app folder: {app.name} ({app.id}), {app.parent_reference.path}")

    # Delta from now on, before anything is written.
    latest = await items.by_drive_item_id(app.id).delta_with_token("latest").get()
    expect(not latest.value and latest.odata_delta_link, "delta(token='latest') is empty with a deltaLink")

    # A folder and a small upload.
    folder = DriveItem(name="saves", folder=Folder(), additional_data={"@microsoft.graph.conflictBehavior": "fail"})
    made = await items.by_drive_item_id(app.id).children.post(folder)
    expect(made.folder is not None, "POST children made a folder")
    small = b"small file from msgraph-sdk\n"
    uploaded = await items.by_drive_item_id(f"{app.id}:/saves/small.txt:").content.put(small)
    expect(uploaded.size == len(small), f"small upload size {uploaded.size}")
    expect(uploaded.file.hashes.quick_xor_hash == quick_xor(small), "small upload quickXorHash")
    expect(uploaded.file.hashes.sha256_hash == hashlib.sha256(small).hexdigest().upper(), "small upload sha256Hash")
    print(f"small upload: {uploaded.name} {uploaded.size} bytes, quickXorHash {uploaded.file.hashes.quick_xor_hash}")

    # A large upload with the SDK's upload helper.
    large = pattern(5 * 320 * 1024 + 12345, 1)
    body = CreateUploadSessionPostRequestBody(
        item=DriveItemUploadableProperties(additional_data={"@microsoft.graph.conflictBehavior": "replace"})
    )
    session = await items.by_drive_item_id(f"{app.id}:/saves/large.bin:").create_upload_session.post(body)
    expect(urlparse(session.upload_url).hostname != host, "the upload URL is on another host")
    task = LargeFileUploadTask(session, adapter, io.BytesIO(large), DriveItem, max_chunk_size=FRAGMENT)
    try:
        await task.upload()
    except APIError as error:
        # msgraph-sdk-python-core#718: upload() sends the last fragment once more after the
        # session completed; the session is gone by then (404 itemNotFound on Graph and here).
        expect(error.response_status_code in (400, 404, 416), f"the large upload failed: {error}")
        print(f"  (the SDK's extra request after completion answered {error.response_status_code}: msgraph-sdk-python-core#718)")
    large_item = await items.by_drive_item_id(f"{app.id}:/saves/large.bin:").get()
    expect(large_item.size == len(large), f"large upload size {large_item.size}")
    expect(large_item.file.hashes.quick_xor_hash == quick_xor(large), "large upload quickXorHash")
    puts = [entry for entry in logged_requests("/upload/") if entry["method"] == "PUT"]
    ranges = [header(entry, "content-range") for entry in puts]
    expect(all(header(entry, "authorization") is None for entry in puts), "no token went to the upload URL")
    expect(ranges[:2] == [f"bytes 0-{FRAGMENT - 1}/{len(large)}", f"bytes {FRAGMENT}-{len(large) - 1}/{len(large)}"],
           f"the fragments: {ranges}")
    print(f"large upload: {large_item.size} bytes, fragments {ranges[:2]} (no Authorization), quickXorHash checked")

    # The same path again in six 320 KiB fragments, with no conflictBehavior: Graph updates the
    # file it names (replace), and keeps the fileSystemInfo the session was made with.
    again = pattern(5 * 320 * 1024 + 777, 2)
    when = datetime.datetime(2024, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc)
    body = CreateUploadSessionPostRequestBody(
        item=DriveItemUploadableProperties(file_system_info=FileSystemInfo(last_modified_date_time=when))
    )
    session = await items.by_drive_item_id(f"{app.id}:/saves/large.bin:").create_upload_session.post(body)
    session_path = urlparse(session.upload_url).path
    task = LargeFileUploadTask(session, adapter, io.BytesIO(again), DriveItem, max_chunk_size=320 * 1024)
    try:
        await task.upload()
    except APIError as error:
        expect(error.response_status_code in (400, 404, 416), f"the second large upload failed: {error}")
    replaced = await items.by_drive_item_id(f"{app.id}:/saves/large.bin:").get()
    expect(replaced.id == large_item.id, "the session updated the file it names")
    expect(replaced.size == len(again) and replaced.file.hashes.quick_xor_hash == quick_xor(again),
           f"the replaced content: {replaced.size} bytes")
    expect(replaced.file_system_info.last_modified_date_time == when,
           f"fileSystemInfo: {replaced.file_system_info.last_modified_date_time}")
    fragments = [entry for entry in logged_requests(session_path) if entry["method"] == "PUT"]
    expect(len(fragments) >= 6, f"{len(fragments)} fragments")
    expect(await items.by_drive_item_id(replaced.id).content.get() == again, "the replaced content downloads")
    large = again
    print(f"large upload over it: {len(fragments)} fragment PUTs of 320 KiB, replaced in place, fileSystemInfo {when}")

    # Downloads: /content follows the 302 to the content host (without the token).
    content = await items.by_drive_item_id(large_item.id).content.get()
    expect(content == large, "large download matches")
    content = await items.by_drive_item_id(uploaded.id).content.get()
    expect(content == small, "small download matches")
    downloads = [entry for entry in logged_requests("/download/")]
    expect(downloads and all(header(entry, "authorization") is None for entry in downloads), "downloads untokened")
    print(f"downloads: {len(large)} + {len(small)} bytes through the 302, identical, no Authorization on the download host")

    # More files, then delta with paging from the saved token.
    for index in range(7):
        await items.by_drive_item_id(f"{app.id}:/saves/slot{index}.sav:").content.put(f"slot {index}".encode())
    await items.by_drive_item_id(f"{app.id}:/saves/slot6.sav:").delete()
    request = items.by_drive_item_id(app.id).delta.with_url(latest.odata_delta_link + "&$top=3")
    page = await request.get()
    changed, deleted, pages = [], [], 1
    while True:
        for item in page.value:
            (deleted if item.deleted else changed).append(item.name)
        if not page.odata_next_link:
            break
        page = await items.by_drive_item_id(app.id).delta.with_url(page.odata_next_link).get()
        pages += 1
    expect(page.odata_delta_link, "the feed ends with a deltaLink")
    expect("large.bin" in changed and "slot0.sav" in changed, f"delta saw the writes: {changed}")
    expect(deleted == ["slot6.sav"], f"delta saw the deletion: {deleted}")
    print(f"delta: {len(changed)} changed, {len(deleted)} deleted, in {pages} pages of 3")

    # An expired delta token: 410 resyncRequired with its inner code.
    expect(control("/__stratus/onedrive/expire-delta-tokens")[0] == 204, "expire delta tokens")
    try:
        await items.by_drive_item_id(app.id).delta.with_url(page.odata_delta_link).get()
        fail("an expired delta token was accepted")
    except ODataError as error:
        inner = error.error.inner_error
        codes = [error.error.code] + ([inner.additional_data.get("code")] if inner and inner.additional_data else [])
        expect(error.response_status_code == 410 and error.error.code == "resyncRequired", f"410: {codes}")
        print(f"expired delta token: {error.response_status_code} {codes}")

    # Versions and restore.
    target = items.by_drive_item_id(f"{app.id}:/saves/small.txt:")
    await target.content.put(b"second version\n")
    versions = (await items.by_drive_item_id(uploaded.id).versions.get()).value
    expect([v.id for v in versions] == ["2.0", "1.0"], f"versions: {[v.id for v in versions]}")
    old = await items.by_drive_item_id(uploaded.id).versions.by_drive_item_version_id("1.0").content.get()
    expect(old == small, "version 1.0's content")
    await items.by_drive_item_id(uploaded.id).versions.by_drive_item_version_id("1.0").restore_version.post()
    versions = (await items.by_drive_item_id(uploaded.id).versions.get()).value
    expect(len(versions) == 3, "restore adds a version")
    expect(await items.by_drive_item_id(uploaded.id).content.get() == small, "the restored content is current")
    print(f"versions: {[v.id for v in versions]} after restoring 1.0")

    # Rename and move (PATCH), then copy (POST /copy, 202 and a monitor URL).
    archive = await items.by_drive_item_id(app.id).children.post(DriveItem(name="archive", folder=Folder()))
    slot = await items.by_drive_item_id(f"{app.id}:/saves/slot0.sav:").get()
    renamed = await items.by_drive_item_id(slot.id).patch(DriveItem(name="first.sav"))
    expect(renamed.id == slot.id and renamed.name == "first.sav", f"rename: {renamed.name}")
    moved = await items.by_drive_item_id(slot.id).patch(DriveItem(parent_reference=ItemReference(id=archive.id)))
    expect(moved.parent_reference.id == archive.id, "move by parentReference")
    try:
        await items.by_drive_item_id(f"{app.id}:/saves/slot0.sav:").get()
        fail("the old path still answers")
    except ODataError as error:
        expect(error.response_status_code == 404, f"the old path: {error.response_status_code}")
    at_new_path = await items.by_drive_item_id(f"{app.id}:/archive/first.sav:").get()
    expect(at_new_path.id == slot.id, "the moved file is at its new path")
    inspect = HeadersInspectionHandlerOption(inspect_response_headers=True)
    await items.by_drive_item_id(slot.id).copy.post(
        CopyPostRequestBody(parent_reference=ItemReference(id=made.id), name="copy.sav"),
        request_configuration=RequestConfiguration(options=[inspect]),
    )
    locations = inspect.response_headers.get("location") or set()
    expect(len(locations) == 1, f"the copy's Location: {locations}")
    monitor = next(iter(locations))
    async with httpx.AsyncClient(verify=ca_file, timeout=60) as plain:
        for _ in range(50):
            status = (await plain.get(monitor)).json()
            if status.get("status") in ("completed", "failed"):
                break
            await asyncio.sleep(0.2)
    expect(status.get("status") == "completed" and status.get("resourceId"), f"the monitor: {status}")
    copied = await items.by_drive_item_id(status["resourceId"]).get()
    expect(copied.name == "copy.sav" and copied.id != slot.id, f"the copy: {copied.name}")
    expect(await items.by_drive_item_id(copied.id).content.get() == b"slot 0", "the copy's content")
    print(f"rename, move (PATCH) and copy: monitor {status['status']}, copy {copied.id}")

    # An error: itemNotFound.
    try:
        await items.by_drive_item_id(f"{app.id}:/saves/missing.txt:").get()
        fail("a missing item was found")
    except ODataError as error:
        expect(error.response_status_code == 404 and error.error.code == "itemNotFound", "404 itemNotFound")
        print(f"missing item: {error.response_status_code} {error.error.code}")

    # A 429 the SDK's retry handler rides out (Retry-After: 1, twice).
    rule = {"route": "/v1.0/drives/*", "method": "GET", "times": 2, "fault": {"kind": "status", "status": 429, "retryAfter": 1}}
    expect(control("/__stratus/faults", rule)[0] in (200, 201), "add the 429 rule")
    before = time.monotonic()
    again = await items.by_drive_item_id(uploaded.id).get()
    waited = time.monotonic() - before
    expect(again.id == uploaded.id and waited >= 2, f"the retry handler waited {waited:.1f} s")
    print(f"429 activityLimitReached twice: the retry handler waited {waited:.1f} s and got the item")

    print(f"OK: msgraph-sdk against the mock in {time.monotonic() - started:.1f} s")


asyncio.run(main())
