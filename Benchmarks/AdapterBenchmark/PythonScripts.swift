/// The official SDKs' side, written to the workspace and run with each SDK's virtualenv.
/// Every script reads `BENCH_BASE`, `BENCH_TOKEN` and `BENCH_CA`, times its work from the
/// client's creation (after the imports) to its end, and prints the same `key=value` report as
/// the Stratus children, its own VmHWM included.
enum PythonScripts {
    static let common = """
        import os, sys, time
        from concurrent.futures import ThreadPoolExecutor
        base, token, ca = os.environ["BENCH_BASE"], os.environ["BENCH_TOKEN"], os.environ["BENCH_CA"] or None

        def report(start, **fields):
            print("seconds=%f" % (time.monotonic() - start))
            for key, value in fields.items():
                print("%s=%s" % (key, value))
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM:"):
                    print("peak-rss-kib=" + line.split()[1])

        def run_all(count, threads, one):
            if threads == 1:
                for i in range(count):
                    one(i)
            else:
                with ThreadPoolExecutor(threads) as pool:
                    for _ in pool.map(one, range(count)):
                        pass

        """

    /// `dropbox.py small COUNT THREADS FOLDER BYTES` or `dropbox.py feed CURSOR`.
    static let dropbox =
        common + """
            hostport = base.split("://", 1)[1]
            for name in ("DROPBOX_API_HOST", "DROPBOX_API_CONTENT_HOST", "DROPBOX_API_NOTIFY_HOST"):
                os.environ[name] = hostport
            import dropbox
            from dropbox.files import WriteMode

            start = time.monotonic()
            dbx = dropbox.Dropbox(oauth2_access_token=token, session=dropbox.create_session(max_connections=32, ca_certs=ca))
            if sys.argv[1] == "small":
                count, threads, folder, size = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
                data = bytes(i % 251 for i in range(size))
                run_all(count, threads, lambda i: dbx.files_upload(data, "/%s/%d.bin" % (folder, i), mode=WriteMode.overwrite))
                report(start, count=count)
            else:
                cursor, count, pages = sys.argv[2], 0, 0
                while True:
                    page = dbx.files_list_folder_continue(cursor)
                    count += len(page.entries)
                    pages += 1
                    cursor = page.cursor
                    if not page.has_more:
                        break
                report(start, count=count, pages=pages)
            """

    /// `drive.py small COUNT THREADS FOLDER BYTES` or `drive.py feed PAGE-TOKEN`.
    static let drive =
        common + """
            import io, json, threading
            import google.oauth2.credentials, google_auth_httplib2, httplib2
            from googleapiclient.discovery import build_from_document
            from googleapiclient.discovery_cache import get_static_doc
            from googleapiclient.http import MediaIoBaseUpload

            DISCOVERY = json.loads(get_static_doc("drive", "v3"))
            DISCOVERY["rootUrl"] = DISCOVERY["mtlsRootUrl"] = base + "/"
            credentials = google.oauth2.credentials.Credentials(token)

            def client():
                http = google_auth_httplib2.AuthorizedHttp(credentials, http=httplib2.Http(ca_certs=ca))
                return build_from_document(DISCOVERY, http=http)

            start = time.monotonic()
            drive = client()
            if sys.argv[1] == "small":
                count, threads, folder, size = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
                data = bytes(i % 251 for i in range(size))
                parent = drive.files().create(body={"name": folder, "mimeType": "application/vnd.google-apps.folder"}, fields="id").execute()["id"]
                local = threading.local()
                def one(i):
                    # httplib2 is not thread-safe: one client per thread.
                    if not hasattr(local, "drive"):
                        local.drive = drive if threads == 1 else client()
                    media = MediaIoBaseUpload(io.BytesIO(data), mimetype="application/octet-stream", resumable=False)
                    local.drive.files().create(body={"name": "%d.bin" % i, "parents": [parent]}, media_body=media, fields="id").execute()
                run_all(count, threads, one)
                report(start, count=count)
            else:
                page_token, fields, count, pages = sys.argv[2], sys.argv[3], 0, 0
                while page_token:
                    page = drive.changes().list(pageToken=page_token, pageSize=1000, fields=fields).execute()
                    count += len(page.get("changes", []))
                    pages += 1
                    page_token = page.get("nextPageToken")
                report(start, count=count, pages=pages)
            """
}
