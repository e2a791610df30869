// Generated from the gateway's OpenAPI document by clients/api-types/scripts/gen-api-types.js: do not edit.
// npm run build && npm run api-types writes it again.

export interface paths {
    "/api/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Apps the caller can see, newest first */
        get: operations["listApps"];
        put?: never;
        /** Create an app (admin or developer) */
        post: operations["createApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/collaborators": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        /** An app's collaborators */
        get: operations["listCollaborators"];
        put?: never;
        /** Add a collaborator, user_id in the body (Zealot clients) */
        post: operations["addCollaboratorFromBody"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/collaborators/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description User id */
                user_id: string;
            };
            cookie?: never;
        };
        /** Get a collaborator */
        get: operations["getCollaborator"];
        /** Change a collaborator's role */
        put: operations["updateCollaborator"];
        /** Add a collaborator */
        post: operations["addCollaborator"];
        /** Remove a collaborator */
        delete: operations["removeCollaborator"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/schemes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        /** An app's schemes */
        get: operations["listSchemes"];
        put?: never;
        /** Create a scheme */
        post: operations["createScheme"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        /** An app's tester groups, with each tester's state */
        get: operations["listTesterGroups"];
        put?: never;
        /** Create a tester group */
        post: operations["createTesterGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups/{group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        /** A tester group, with each tester's state */
        get: operations["getTesterGroup"];
        put?: never;
        post?: never;
        /** Delete a tester group: its testers in no other group are signed out at once */
        delete: operations["deleteTesterGroup"];
        options?: never;
        head?: never;
        /** Rename a tester group or replace its channels */
        patch: operations["updateTesterGroup"];
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups/{group_id}/join_links": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        /** A tester group's join links (without their URLs, which are shown once) */
        get: operations["listJoinLinks"];
        put?: never;
        /** A shareable link to join the group by e-mail (its URL answered once) */
        post: operations["createJoinLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups/{group_id}/join_links/{link_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
                /** @description Join link id */
                link_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a join link: it lets nobody in any more (who joined stays) */
        delete: operations["deleteJoinLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups/{group_id}/testers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add testers by e-mail: each new one is sent a sign-in link */
        post: operations["addTesters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/tester_groups/{group_id}/testers/{tester_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
                /** @description Tester id */
                tester_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a tester: in no other group, their sessions and install links end at once */
        delete: operations["removeTester"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{app_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        /** An app's webhooks (app admins) */
        get: operations["listWebhooks"];
        put?: never;
        /** Create a webhook (app admins) */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                id: string;
            };
            cookie?: never;
        };
        /** Get an app */
        get: operations["getApp"];
        /** Rename an app */
        put: operations["updateApp"];
        post?: never;
        /** Delete an app with everything under it, files included */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Releases newer than the given version */
        get: operations["latestReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/update_check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * In-app update check: is there a newer build, and must it be installed?
         * @description Newer means what `latest` means: a higher release version, or the same release version and a higher build version.
         */
        get: operations["updateCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a build
         * @description Streams the package to storage; the type is detected from the content. Without `channel_key`, the app (by name), an `Adhoc` scheme and a channel named after the platform are found or created.
         */
        post: operations["uploadRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/version_exist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether a build exists
         * @description Valid combinations: bundle_id with release_version and build_version, or bundle_id with git_commit; others are 422.
         */
        get: operations["versionExists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A channel's releases, newest upload first
         * @description The optional filters (an addition to Zealot) narrow the list and its `X-Total-Count`; empty ones match everything, and a value over 200 characters is 422.
         */
        get: operations["listVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Writes through the API, newest first (admins; app admins with app_id) */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        /** Get a channel */
        get: operations["getChannel"];
        /** Update a channel (fields left out keep their values) */
        put: operations["updateChannel"];
        post?: never;
        /** Delete a channel with its releases */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/tester_devices": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        /** The devices of the channel's testers, and which of them its newest build's provisioning profile leaves out (with Apple's device list file of those) */
        get: operations["listChannelTesterDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A channel's debug files */
        get: operations["listDebugFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        /** Get a debug file */
        get: operations["getDebugFile"];
        /** Replace the archive of a debug file */
        put: operations["replaceDebugFile"];
        post?: never;
        /** Delete a debug file */
        delete: operations["deleteDebugFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        /** Download this debug file (its `file_url`) */
        get: operations["downloadDebugFileById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a debug file by version
         * @description `build_version` picks that build; otherwise `order=version` the highest build of the release version, `order=upload_date` the newest upload.
         */
        get: operations["downloadDebugFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files/retrace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deobfuscate an Android stack trace
         * @description With the ProGuard/R8 mapping of that build in the channel (its newest upload). The body is bounded by the gateway's MAX_BODY_BYTES (413 above it); no mapping for the build: 404.
         */
        post: operations["retraceStackTrace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debug_files/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a dSYM zip or an Android mapping zip */
        post: operations["uploadDebugFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/direct_uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin an upload whose parts go straight to S3 (presigned part URLs)
         * @description Only when the server has `S3_PUBLIC_ENDPOINT` (else 404): the client PUTs bytes `offset`…`offset+length` of the file to each part's URL, in any order and in parallel, then finishes with `POST /api/apps/upload` (or `/api/debug_files/upload`) and `upload_id`, which checks every part, joins them and hashes the file.
         */
        post: operations["createDirectUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of every service */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /** A release with every field (app member+) */
        get: operations["getRelease"];
        /** Edit a release (fields left out keep their values) */
        put: operations["updateRelease"];
        post?: never;
        /** Delete a release and its files */
        delete: operations["deleteRelease"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /**
         * The package
         * @description A password-protected channel needs its unlock cookie or the signed `t` from the release page.
         */
        get: operations["downloadRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}/icon": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /** The release's icon (a default one when the package has none) */
        get: operations["getReleaseIcon"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}/manifest.plist": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /** iOS install manifest (itms-services) */
        get: operations["getReleaseManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}/qrcode": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /** QR code of the release page URL */
        get: operations["getReleaseQrCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/releases/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Downloads and installs of a release, per UTC day
         * @description For collaborators of the app (member and up). Counted off the request path: a download shows here within seconds.
         */
        get: operations["getReleaseStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schemes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                id: string;
            };
            cookie?: never;
        };
        /** Get a scheme */
        get: operations["getScheme"];
        /** Update a scheme (fields left out keep their values) */
        put: operations["updateScheme"];
        post?: never;
        /** Delete a scheme with its channels and releases */
        delete: operations["deleteScheme"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schemes/{scheme_id}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                scheme_id: string;
            };
            cookie?: never;
        };
        /** A scheme's channels */
        get: operations["listChannels"];
        put?: never;
        /** Create a channel */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's console sessions */
        get: operations["listSessions"];
        put?: never;
        /**
         * Sign in with email and password: sets the HttpOnly `hangar_session` cookie (SameSite=Lax; Secure over HTTPS)
         * @description With single sign-on only (`OIDC_SSO_ONLY`), a right password of anyone but a global admin is 403; an admin's sign-in is recorded in the audit log with the field `break_glass`. A request from another site is 403 (login CSRF): an `Origin` whose host is not the public base URL's, or `Sec-Fetch-Site: cross-site` / `same-site`; without `Origin` (CLI, curl) the sign-in is judged as usual.
         */
        post: operations["signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Session id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of the caller's sessions (takes effect at once) */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the session cookie is, with its CSRF token (for a reloaded page) */
        get: operations["getCurrentSession"];
        put?: never;
        post?: never;
        /** Sign out: ends this session and clears the cookie */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the identity provider sends the browser back: the answer verified (ID token signature, issuer, audience, nonce, expiry), the user found by the provider's issuer and subject, else matched by verified email (and bound to that subject; an email bound to another subject of the provider is a 403) or created with the default role, and a session cookie set as by `POST /api/sessions`
         * @description A browser (Accept: text/html) is answered a page that says why a sign-in was refused; other clients the JSON error. Recorded in the audit log, refused or not.
         */
        get: operations["finishSingleSignOn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/oidc/cli-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `hangar login --web`: the one-time code the CLI received on its loopback port, and its verifier, for a new personal access token of the signed-in user */
        post: operations["redeemCliSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/oidc/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Single sign-on (OpenID Connect): redirects the browser to the identity provider, with PKCE, state and nonce */
        get: operations["startSingleSignOn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the console may sign in: passwords, and the identity provider when one is configured */
        get: operations["getSignInOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/others": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign out everywhere else: ends every session of the caller but this one (each at once); this session stays signed in */
        delete: operations["revokeOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teardown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read a package without publishing it
         * @description Any signed-in user. Streams the package to storage like an upload; a file whose first bytes match no package format is refused (422) before it is stored, one over the upload limit with 413.
         */
        post: operations["createTeardown"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teardown/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Teardown id */
                id: string;
            };
            cookie?: never;
        };
        /**
         * A teardown, for its uploader
         * @description Only the uploader: anyone else, and everyone once it has expired, gets 404.
         */
        get: operations["getTeardown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tester": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in tester's channels, their newest builds, and the tester's registered devices */
        get: operations["getTesterView"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tester/devices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of the signed-in tester's devices */
        delete: operations["removeTesterDevice"];
        options?: never;
        head?: never;
        /** Name one of the signed-in tester's devices */
        patch: operations["renameTesterDevice"];
        trace?: never;
    };
    "/api/tester/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a tester group by its join link's token: a sign-in link is e-mailed to the address */
        post: operations["joinTesterGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tester/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign the tester out (ends the cookie's session) */
        delete: operations["endTesterSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tester/sign_in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a new sign-in link by e-mail (the same answer for any address) */
        post: operations["requestTesterSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin a resumable upload (tus 1.0 creation)
         * @description The tus 1.0 protocol (https://tus.io/protocols/resumable-upload) with the creation, creation-with-upload, checksum (sha256), termination, expiration and concatenation extensions; `OPTIONS /api/uploads` names them. The token, and the channel (`channel_key` in `Upload-Metadata`) or the right to create apps, are checked here, before any byte is taken. `Upload-Metadata` keys: `filename`, `purpose` (`package`, default, or `debug_file`), `channel_key` (required for debug files). `Upload-Concat: partial` makes a part of a parallel upload; `final;<url> <url>` joins the caller's complete parts. A partial whose metadata names its parallel upload (`parallel_upload`, `parallel_size`) and whose first bytes say where they start (`Hangar-Partial-Start`) is written into the whole file as it arrives. A complete upload becomes a build through `POST /api/apps/upload` or `POST /api/debug_files/upload` with `upload_id`. Unfinished uploads expire after `RESUMABLE_UPLOAD_EXPIRY_MS` (24 h).
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The upload, the last segment of its URL */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Abandon an upload and remove its bytes (tus termination) */
        delete: operations["terminateUpload"];
        options?: never;
        /** How much of an upload the server has (tus HEAD) */
        head: operations["getUploadOffset"];
        /**
         * Send bytes at the upload's offset (tus PATCH)
         * @description Only the upload's creator may write to it; for anyone else it does not exist (404). A body cut short keeps what arrived (without `Upload-Checksum`).
         */
        patch: operations["appendUpload"];
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users (admin) */
        get: operations["listUsers"];
        put?: never;
        /** Create a user (admin) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        /** Get a user (admin, or oneself) */
        get: operations["getUser"];
        /** Update a user (admin, or oneself without raising the role); a changed password ends the user's sessions */
        put: operations["updateUser"];
        post?: never;
        /** Delete a user (admin) */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /** Change some fields of a user (admin, or oneself without raising the role); fields left out keep their values; a changed password ends the user's sessions */
        patch: operations["patchUser"];
        trace?: never;
    };
    "/api/users/{id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        /** A user's tokens (oneself or admin) */
        get: operations["listTokens"];
        put?: never;
        /** Create a token */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
                /** @description Token id */
                token_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token (takes effect at once) */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token's user */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change one's own password; every other session of the caller ends */
        put: operations["changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Find users by email (admin) */
        get: operations["searchUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Running version */
        get: operations["getApiVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getWebhook"];
        /** Update a webhook (fields left out keep their values) */
        put: operations["updateWebhook"];
        post?: never;
        /** Delete a webhook */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        /** A webhook's delivery log */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test delivery now */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apple/{credential}/dsym/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description `<UUID>.zip` */
                file: string;
            };
            cookie?: never;
        };
        /** Apple dSYM by UUID, the credential in the URL */
        get: operations["dsymByUuidWithCredentialInPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apple/{credential}/unified/{prefix}/{rest}/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description debuginfo */
                kind: "debuginfo";
                /** @description The first 2 hex digits of the UUID */
                prefix: string;
                /** @description The other 30 hex digits */
                rest: string;
            };
            cookie?: never;
        };
        /**
         * Apple Mach-O slice (unified layout), the credential in the URL
         * @description For Sentry's custom HTTP repository with layout `unified`: `<origin>/apple/<token or channel key>/unified`.
         */
        get: operations["machoSliceUnifiedWithCredentialInPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apple/dsym/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `<UUID>.zip` */
                file: string;
            };
            cookie?: never;
        };
        /**
         * Apple: the dSYM zip holding a Mach-O UUID
         * @description The whole uploaded dSYM zip, found by any of its slices' UUIDs (any case, dashes optional).
         */
        get: operations["dsymByUuidWithToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apple/unified/{prefix}/{rest}/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description debuginfo */
                kind: "debuginfo";
                /** @description The first 2 hex digits of the UUID */
                prefix: string;
                /** @description The other 30 hex digits */
                rest: string;
            };
            cookie?: never;
        };
        /**
         * Apple: one Mach-O slice of a dSYM in Sentry's unified layout
         * @description The thin Mach-O DWARF file of one UUID (lowercase hex without dashes: the first 2 digits, then the other 30), stored when its dSYM was uploaded.
         */
        get: operations["machoSliceUnifiedWithToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/breakpad/{credential}/{module}/{module_id}/{sym}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description The module's debug file name (`app`, `app.pdb`) */
                module: string;
                /** @description The module id: GUID and age, 33 to 40 hex digits */
                module_id: string;
                /** @description The module name without .pdb/.exe/.dll, then `.sym` */
                sym: string;
            };
            cookie?: never;
        };
        /**
         * Breakpad, the credential in the URL
         * @description For symbol-server settings that take a URL only: `<origin>/breakpad/<token or channel key>`.
         */
        get: operations["breakpadWithCredentialInPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/breakpad/{module}/{module_id}/{sym}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The module's debug file name (`app`, `app.pdb`) */
                module: string;
                /** @description The module id: GUID and age, 33 to 40 hex digits */
                module_id: string;
                /** @description The module name without .pdb/.exe/.dll, then `.sym` */
                sym: string;
            };
            cookie?: never;
        };
        /**
         * Breakpad: a .sym file by module and module id
         * @description The layout minidump processors read: `<module>/<module id>/<module without .pdb/.exe/.dll>.sym`.
         */
        get: operations["breakpadWithToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel key */
                slug: string;
            };
            cookie?: never;
        };
        /** A channel's releases */
        get: operations["channelPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{slug}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel key */
                slug: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unlock a channel's pages with its password */
        post: operations["unlockChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/debuginfod/{credential}/buildid/{build_id}/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description GNU build-id, hex */
                build_id: string;
                /** @description An access token or a channel key, for clients that can only be given a URL */
                credential: string;
                /** @description debuginfo or executable */
                kind: "debuginfo" | "executable";
            };
            cookie?: never;
        };
        /**
         * debuginfod, the credential in the URL
         * @description Set `DEBUGINFOD_URLS=<origin>/debuginfod/<token or channel key>`. A channel key finds that channel's files only.
         */
        get: operations["debuginfodWithCredentialInPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/debuginfod/buildid/{build_id}/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description GNU build-id, hex */
                build_id: string;
                /** @description debuginfo or executable */
                kind: "debuginfo" | "executable";
            };
            cookie?: never;
        };
        /**
         * debuginfod: an ELF file by GNU build-id
         * @description What a debuginfod client (`DEBUGINFOD_URLS`) asks for. `debuginfo`: a file with DWARF; `executable`: a file with code. Files of every app the token may read.
         */
        get: operations["debuginfodWithToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/releases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        /** Release page */
        get: operations["releasePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/releases/{id}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unlock the pages of a release's channel with its password (the release page's form: it names no channel key) */
        post: operations["unlockRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/symbols/{credential}/{file}/{id}/{again}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file name again */
                again: string;
                /** @description An access token or a channel key */
                credential: string;
                /** @description The file name as uploaded (`app.pdb`, `app.exe`) */
                file: string;
                /** @description A PDB's GUID (32 hex digits) then its age in hex, or a PE's TimeDateStamp (8 hex digits) then its SizeOfImage in hex */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Microsoft symbol server, the credential in the URL
         * @description For a symbol path that takes a URL only: `srv*C:\symbols*<origin>/symbols/<token or channel key>`.
         */
        get: operations["microsoftSymbolsWithCredentialInPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/symbols/{file}/{id}/{again}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file name again */
                again: string;
                /** @description The file name as uploaded (`app.pdb`, `app.exe`) */
                file: string;
                /** @description A PDB's GUID (32 hex digits) then its age in hex, or a PE's TimeDateStamp (8 hex digits) then its SizeOfImage in hex */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Microsoft symbol server: a PDB by GUID and age, a PE by code id
         * @description The layout Visual Studio, WinDbg and Sentry read (`<file>/<GUID><age>/<file>`), in any case (SSQP lowercases it).
         */
        get: operations["microsoftSymbolsWithToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in tester's builds, channel by channel; without a session, the sign-in form */
        get: operations["testerHomePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in tester's devices: each one's name, model and UDID, and which of their newest ad hoc builds install on it */
        get: operations["testerDevicesPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/devices/{id}/name": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Name a device (the form of the devices page) */
        post: operations["renameDeviceByPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/devices/{id}/remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove a device (the form of the devices page) */
        post: operations["removeDeviceByPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A group's join link: the form for an address */
        get: operations["joinTesterGroupPage"];
        put?: never;
        /** The join form: the address joins the group and is e-mailed a sign-in link */
        post: operations["joinTesterGroupByPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An invitation's single-use sign-in link: sets the `hangar_tester` cookie and opens the tester's builds */
        get: operations["openTesterSignInLink"];
        put?: never;
        /** The sign-in form: a new link is e-mailed to a tester (the same page for any address) */
        post: operations["requestTesterSignInPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign the tester out: ends the cookie's session */
        post: operations["testerSignOutPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tester/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A new-build e-mail's unsubscribe link: asks to confirm (a mail scanner opening links unsubscribes nobody) */
        get: operations["unsubscribePage"];
        put?: never;
        /** No more new-build e-mails to this tester of this group (one-click, RFC 8058, too) */
        post: operations["unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/udid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Register an iPhone or iPad: what the profile does, and its download (a tester session is needed) */
        get: operations["udidPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/udid/profile.mobileconfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The profile that makes the device send its UDID, model and iOS version (signed when UDID_PROFILE_CERT is set) */
        get: operations["udidProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/udid/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Where the device posts its signed attributes: stored under the tester the profile's challenge names, then Safari opens the devices page */
        post: operations["registerDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Running version */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AndroidDetails: {
            min_sdk_version: number | null;
            native_abis: string[];
            permissions: string[];
            target_sdk_version: number | null;
        };
        /** @description `collaborators` in single-app answers (create, get, update), not in lists. */
        App: {
            collaborators?: components["schemas"]["Collaborator"][];
            id: number;
            name: string;
            schemes: components["schemas"]["Scheme"][];
        };
        AppRef: {
            id: number;
            name: string;
        };
        /** @description One write through the API, allowed or refused. */
        AuditEntry: {
            /** @description Client address. */
            address: string;
            /** @description The app concerned, when the path or the answer names it. */
            app_id: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            at: string;
            /** @description Body fields sent; password, token and secret fields are `[redacted]`, long values cut. */
            fields: {
                [key: string]: string;
            };
            id: string;
            method: string;
            /** @description The operationId. */
            operation: string;
            path: string;
            /** @description The X-Request-Id of the write. */
            request_id: string;
            /** @description Path parameters by name. */
            resource_ids: {
                [key: string]: string;
            };
            status: number;
            /** @description The personal access token used, if any. */
            token_id: number | null;
            /** @description Null when the write was refused before anyone was known (401). */
            user_id: number | null;
        };
        /** @description A signing certificate. */
        Certificate: {
            common_name: string | null;
            /** @description Past `expires_at` when this answer was made. */
            expired: boolean;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            not_before: string | null;
            /** @description SHA-256 of the DER certificate, `AB:CD:…` (as keytool and openssl print it). */
            sha256: string;
            /** @description RDNs as Node prints them, comma-separated. */
            subject: string;
        };
        ChangelogEntry: {
            author?: string;
            date?: string;
            email?: string;
            message: string;
        };
        Channel: {
            /** @description `*` accepts every package id; otherwise a glob matched against the whole id. */
            bundle_id: string;
            /** @enum {string} */
            device_type: "ios" | "android" | "macos" | "windows" | "linux";
            git_url: string | null;
            /** @description A visit password guards the install pages; it is never answered. */
            has_password: boolean;
            id: number;
            /** @description Installs with an older release version must update (`update_check` answers `mandatory: true`). */
            min_supported_version: string | null;
            name: string;
            /** @description The channel key (`channel_key`): generated unguessable, or chosen ([A-Za-z0-9_-]{3,64}). */
            slug: string;
        };
        ChannelSummary: {
            bundle_id: string;
            /** @enum {string} */
            device_type: "ios" | "android" | "macos" | "windows" | "linux";
            git_url: string | null;
            has_password: boolean;
            name: string;
            slug: string;
        };
        ChannelTesterDevice: {
            id: number;
            /**
             * @description `unknown`: the profile lists more devices than are kept; null: the newest build does not restrict installs by device (or there is none)
             * @enum {string|null}
             */
            in_latest_build: "in" | "out" | "unknown" | null;
            name: string;
            os_version: string;
            product: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            registered_at: string;
            tester_email: string;
            udid: string;
        };
        ChannelTesterDevices: {
            /** @description The devices left out, in the file Apple's developer portal takes (Devices → Register Multiple Devices): tab-separated, with its header */
            apple_device_list: string;
            devices: components["schemas"]["ChannelTesterDevice"][];
            /** @description The channel's newest build; null when it has none */
            latest_build: {
                build_version: string;
                id: number;
                /** @description An ad hoc or development build: installs only on the devices its profile lists */
                profile_lists_devices: boolean;
                release_version: string;
            } | null;
            /** @description Devices the newest build leaves out */
            missing: number;
        };
        Collaborator: {
            email: string;
            /** @description The user id */
            id: number;
            /** @enum {string} */
            role: "admin" | "developer" | "member";
            username: string;
        };
        CreatedToken: {
            /** @description Empty: every app of its user. Otherwise anything on another app is 403. */
            app_ids: number[];
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description After this the token is refused (401); null: never.
             */
            expires_at: string | null;
            hint: string;
            id: number;
            /** @description The client address of the last use (X-Forwarded-For as the gateway trusts it). */
            last_used_address: string | null;
            /**
             * Format: date-time
             * @description Last use, to within a minute (and the token cache's age, AUTH_CACHE_MAX_AGE_MS).
             */
            last_used_at: string | null;
            name: string;
            /** @description Empty: every right of its user. Otherwise the operations it may call are those listing one of these in `x-hangar-scopes`. */
            scopes: ("read" | "upload" | "manage" | "admin")[];
            /** @description The token itself: shown here once, stored only as a hash. */
            token: string;
        };
        CreatedWebhook: {
            app_id: number;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            events: string[];
            /**
             * @description The body's shape: `generic` (Hangar's signed JSON) or the message a chat platform's incoming webhook posts (docs/events.md, Chat presets).
             * @enum {string}
             */
            format: "generic" | "slack" | "teams" | "discord" | "feishu" | "dingtalk" | "wecom";
            id: number;
            /** @description The HMAC-SHA256 signing secret: shown here once. */
            secret: string;
            /** Format: uri */
            url: string;
        };
        CustomField: {
            /** @description A fontawesome class, e.g. `fa-solid fa-star`. */
            icon?: string;
            name: string;
            value: string;
        };
        DebugFile: {
            app_name: string;
            build_version: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** @description ios, android, or linux (ELF debug files) */
            device_type: string;
            /**
             * Format: uri
             * @description Downloads this exact file (needs its channel key, which the URL carries).
             */
            file_url: string;
            id: number;
            /** @enum {string} */
            kind: "dsym" | "proguard" | "elf" | "breakpad" | "pdb" | "pe";
            metadata: components["schemas"]["DebugFileMetadata"][];
            release_version: string;
            /** @description The live releases of this version and build in its channel, newest upload first. Left out when the releases service did not answer (the rest of the answer stands). */
            releases?: components["schemas"]["ReleaseLink"][];
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            updated_at: string;
        };
        /** @description One debug file of a release's version and build. */
        DebugFileLink: {
            /** @description The ids debuggers ask with (Mach-O UUIDs, GNU build-ids, PDB GUID+age, Breakpad module ids), lowercased. */
            debug_ids: string[];
            /** @description The name it was uploaded with. */
            file_name: string;
            /**
             * Format: uri
             * @description Downloads this file; present when the answer knows the channel key.
             */
            file_url?: string;
            id: number;
            /** @enum {string} */
            kind: "dsym" | "proguard" | "elf" | "breakpad" | "pdb" | "pe";
            /** @description Bytes */
            size: number;
        };
        /** @description One Mach-O slice (iOS) or one file of a mapping archive (Android): the seed's "Shape B". */
        DebugFileMetadata: {
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** @description The parser's extras. */
            data: Record<string, never>;
            debug_file_id: number;
            id: number;
            /** @description Object or file name */
            object: string;
            size: number;
            /** @description Architecture (arm64, …) or the Android file kind. */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            updated_at: string;
            /** @description Mach-O UUID (iOS); empty for Android files. */
            uuid: string;
        };
        Deleted: {
            /**
             * @description Spelled so (the seed): existing clients read it.
             * @constant
             */
            mesage: "OK";
        };
        /** @description One attempt of a delivery, as the delivery log keeps it. */
        Delivery: {
            attempt: number;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** @description Stable across the attempts of one delivery (the X-Hangar-Delivery header). */
            delivery_id: string;
            duration_ms: number;
            error: string | null;
            event: string;
            event_id: string;
            id: number;
            /** @description null when no HTTP response arrived */
            status_code: number | null;
            success: boolean;
            webhook_id: number;
        };
        DownloadDay: {
            /** @description UTC day */
            date: string;
            total: number;
            /** @description Distinct clients that day (a salted hash of address and user agent, rotated daily; never the address): exact up to 4,096, estimated past it (standard error 0.81 %). */
            unique: number;
        };
        /** @description Every error: 4xx and 503. */
        Error: {
            /** @description Field problems of a validation error: field → messages. */
            entry?: {
                [key: string]: string[];
            };
            /** @description What went wrong, for people. */
            error: string;
        };
        /** @description Answered from a copy at most a second old. For readiness probes; liveness is each process's own health (docs/operations.md). */
        Health: {
            /** @description Each dependency as the services reach it (MongoDB-wire, S3, NATS): `unavailable` when one service that uses it cannot reach it. Checked by each service when asked, at most once a second. */
            checks: {
                /** @enum {string} */
                database: "ok" | "unavailable";
                /** @enum {string} */
                events: "ok" | "unavailable";
                /** @enum {string} */
                storage: "ok" | "unavailable";
            };
            /** @description Every service answers its gRPC health check and every dependency in `checks` is ok. */
            healthy: boolean;
            services: {
                apps: boolean;
                debugFiles: boolean;
                releases: boolean;
                users: boolean;
                webhooks: boolean;
            };
        };
        JoinLink: {
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            expires_at: string | null;
            id: number;
            /** @description 0: no limit */
            seats: number;
            /** @description `<base>/tester/join?token=…`: only in the answer that made the link */
            url?: string;
            used_seats: number;
        };
        /** @description The caller's own account: a User and what only its owner needs. Never a password. */
        Me: {
            /** @enum {string} */
            appearance: "light" | "dark" | "auto";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** Format: email */
            email: string;
            id: number;
            /** @enum {string} */
            locale: "zh-CN" | "en";
            /** @description The password was generated at first start (bootstrap admin): the console asks for a new one. Cleared when a different password is set. */
            must_change_password: boolean;
            /** @enum {string} */
            role: "admin" | "developer" | "member";
            /** @description One of the seed's time zone names, e.g. Etc/UTC. */
            timezone: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            updated_at: string;
            username: string;
        };
        Message: {
            message: string;
        };
        OtherSessionsEnded: {
            /** @description How many other sessions were ended. */
            ended: number;
            /** @constant */
            mesage: "OK";
        };
        PasswordChanged: {
            /** @constant */
            mesage: "OK";
            /**
             * @description Which of the user's console sessions the password change ended: `others` when the user changed their own password from a console session, which stays signed in; else `all`.
             * @enum {string}
             */
            sessions_ended: "all" | "others";
        };
        /** @description The embedded provisioning profile of an iOS or macOS build. */
        ProvisioningProfile: {
            app_id_name: string | null;
            /** Format: date-time */
            created_at: string | null;
            devices: string[];
            /** @description How many devices the profile admits. */
            devices_count: number;
            /** @description `devices` holds the first 200 only. */
            devices_truncated: boolean;
            /** @description Entitlement → its plist value as JSON (data as base64, at most 100 entries). */
            entitlements: Record<string, never>;
            entitlements_truncated: boolean;
            expired: boolean;
            /**
             * Format: date-time
             * @description Null when the profile has none in 1970–9999.
             */
            expires_at: string | null;
            name: string | null;
            platforms: string[];
            provisions_all_devices: boolean;
            team: {
                id: string | null;
                name: string | null;
            };
            /**
             * @description As Xcode names it (the release's `release_type` keeps Zealot's precedence).
             * @enum {string}
             */
            type: "development" | "ad_hoc" | "enterprise" | "app_store";
            uuid: string | null;
        };
        Release: {
            /** @description Android builds only. */
            android: components["schemas"]["AndroidDetails"] | null;
            app?: components["schemas"]["AppRef"];
            app_name: string;
            branch: string;
            build_version: string;
            /** @description iOS bundle id, Android package name, … */
            bundle_id: string;
            changelog: components["schemas"]["ChangelogEntry"][];
            channel?: components["schemas"]["ChannelSummary"];
            ci_url: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            custom_fields: components["schemas"]["CustomField"][];
            /** @description The live debug files of this version and build in its channel, newest upload first. Left out when the debug-files service did not answer (the rest of the answer stands). */
            debug_files?: components["schemas"]["DebugFileLink"][];
            /** @description iPhone, iPad, Universal, Phone, Tablet, TV, Watch, … */
            device_type: string;
            /** @description Package downloads and iOS manifest fetches through Hangar, all time (counted off the request path: a few seconds behind). */
            download_count: number;
            git_commit: string;
            /** Format: uri */
            icon_url: string;
            id: number;
            /**
             * Format: uri
             * @description iOS: `itms-services://?action=download-manifest&url=…`; others: a download URL.
             */
            install_url: string;
            /** @description Installs of older builds must update to this one (`update_check`). */
            mandatory: boolean;
            min_os_version: string;
            /** @enum {string} */
            platform: "iOS" | "Android" | "macOS" | "Windows" | "Linux";
            /**
             * Format: uri
             * @description PNG of the release page URL; `size` query parameter.
             */
            qrcode_url: string;
            /** @description As given, or parsed (iOS: AdHoc, Enterprise, Development, AppStore). */
            release_type: string;
            /**
             * Format: uri
             * @description The install page.
             */
            release_url: string;
            release_version: string;
            scheme?: components["schemas"]["SchemeRef"];
            /** @description Lowercase hex SHA-256 of the package as uploaded; null for builds uploaded before it was recorded. */
            sha256: string | null;
            /** @description Null when the package carries no signature Hangar reads (or was parsed before it did). */
            signing: components["schemas"]["Signing"] | null;
            /** @description Bytes */
            size: number;
            /** @description Default `api`. */
            source: string;
            /** @description `- message` lines. */
            text_changelog: string;
            /** @description Sequence number of the release in its channel. */
            version: number;
        };
        /** @description A release of the same channel, version and build as a debug file. */
        ReleaseLink: {
            build_version: string;
            id: number;
            /**
             * Format: uri
             * @description The install page.
             */
            release_url: string;
            release_version: string;
            /** @description Sequence number of the release in its channel. */
            version: number;
        };
        ReleaseStats: {
            days: components["schemas"]["DownloadDay"][];
            release_id: number;
            /** @description Downloads and iOS manifest fetches, all time. */
            total: number;
            /** @description The sum of each day's distinct clients. */
            unique: number;
        };
        Retraced: {
            /** @description The mapping archive used. */
            debug_file_id: number;
            /** @description One line per output line, each ending in a newline. */
            stack_trace: string;
        };
        Scheme: {
            channels: components["schemas"]["Channel"][];
            id: number;
            name: string;
            /** @description Webhooks of the app are called for each new build. */
            new_build_callout: boolean;
            /** @description Builds kept per channel; 0 keeps all. */
            retained_builds: number;
        };
        SchemeRef: {
            id: number;
            name: string;
        };
        /** @description A console session, without its secret (which lives only in the HttpOnly cookie). */
        Session: {
            /** @description The client address it signed in from (X-Forwarded-For as the gateway trusts it); null for sessions made before it was kept. */
            address: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** @description The session this request came with */
            current: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            expires_at: string;
            id: number;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            last_used_at: string;
            /** @description The browser that signed in */
            user_agent: string;
        };
        SignedIn: {
            /** @description Send it as X-CSRF-Token with every cookie-authenticated write (any method but GET, HEAD, OPTIONS). */
            csrf_token: string;
            session: components["schemas"]["Session"];
            user: components["schemas"]["User"];
        };
        /** @description Who signed the build: Android signature schemes and certificates; Apple profile and its developer certificates. */
        Signing: {
            certificates: components["schemas"]["Certificate"][];
            /** @description At most 20 are listed. */
            certificates_truncated: boolean;
            profile: components["schemas"]["ProvisioningProfile"] | null;
            schemes: ("v1" | "v2" | "v3" | "v3.1")[];
        };
        /** @description How the console may sign in (public, for the sign-in page). */
        SignInOptions: {
            /**
             * @description `admins_only`: single sign-on only; a password signs in global admins alone (the break-glass path, audited)
             * @enum {string}
             */
            password_sign_in: "everyone" | "admins_only";
            /** @description null: no identity provider is configured */
            single_sign_on: {
                /** @description For the button: "Sign in with <provider_name>" */
                provider_name: string;
                /** @description Open it in the browser (a top-level navigation) to sign in through the identity provider */
                start_url: string;
            } | null;
        };
        /** @description A package's metadata and signing, read without creating a release. */
        Teardown: {
            android: components["schemas"]["AndroidDetails"] | null;
            build_version: string;
            bundle_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            device_type: string;
            /**
             * Format: date-time
             * @description After this the result and its file are deleted (TEARDOWN_RETENTION_DAYS).
             */
            expires_at: string;
            file_name: string;
            /** @enum {string} */
            format: "ipa" | "apk" | "aab" | "app-zip" | "dmg" | "exe" | "msi" | "deb" | "rpm" | "appimage";
            /** @description Random; names the result. */
            id: string;
            min_os_version: string;
            name: string;
            /** @enum {string} */
            platform: "iOS" | "Android" | "macOS" | "Windows" | "Linux";
            /** @description As an upload would record it (iOS: AdHoc, Enterprise, Development, AppStore). */
            release_type: string;
            release_version: string;
            signing: components["schemas"]["Signing"] | null;
            /** @description Bytes */
            size: number;
            /**
             * Format: uri
             * @description Where the uploader reads it again until it expires.
             */
            url: string;
        };
        Tester: {
            email: string;
            id: number;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            invited_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            joined_at: string | null;
            last_download: {
                /**
                 * Format: date-time
                 * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
                 */
                at: string;
                release_id: number;
            } | null;
            /**
             * @description `joined` once a sign-in link of theirs was used
             * @enum {string}
             */
            state: "invited" | "joined";
        };
        TesterDevice: {
            id: number;
            /** @description Given by the tester (at first the model) */
            name: string;
            /** @description The iOS build the device reported */
            os_version: string;
            /** @description Apple's model identifier, `iPhone15,2` */
            product: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            registered_at: string;
            /** @description In the channel list of an app's admins only */
            tester_email?: string;
            udid: string;
        };
        TesterGroup: {
            app_id: number;
            channel_ids: number[];
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            id: number;
            name: string;
            testers: components["schemas"]["Tester"][];
        };
        TestersAdded: {
            added: components["schemas"]["Tester"][];
            already_members: string[];
        };
        TesterView: {
            channels: {
                app_id: number;
                app_name: string;
                builds: {
                    build_version: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
                     */
                    created_at: string;
                    id: number;
                    /** @description A path of the install pages */
                    install_page: string;
                    /** @description The tester's devices this ad hoc or development build's provisioning profile does not list: it will not install on them */
                    left_out_devices: number[];
                    release_version: string;
                }[];
                channel_id: number;
                device_type: string;
                name: string;
            }[];
            devices: components["schemas"]["TesterDevice"][];
            email: string;
        };
        /** @description A personal access token, without its value. */
        Token: {
            /** @description Empty: every app of its user. Otherwise anything on another app is 403. */
            app_ids: number[];
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description After this the token is refused (401); null: never.
             */
            expires_at: string | null;
            /** @description The last characters of the token, after an ellipsis: the token itself is shown only once. */
            hint: string;
            id: number;
            /** @description The client address of the last use (X-Forwarded-For as the gateway trusts it). */
            last_used_address: string | null;
            /**
             * Format: date-time
             * @description Last use, to within a minute (and the token cache's age, AUTH_CACHE_MAX_AGE_MS).
             */
            last_used_at: string | null;
            name: string;
            /** @description Empty: every right of its user. Otherwise the operations it may call are those listing one of these in `x-hangar-scopes`. */
            scopes: ("read" | "upload" | "manage" | "admin")[];
        };
        UpdateCheck: {
            /** @description The package. */
            download_url: string | null;
            /** @description iOS: `itms-services://…`; others: the download URL. */
            install_url: string | null;
            /** @description It must be installed: the newest build or one between is mandatory, or the installed version is below the channel's min_supported_version. */
            mandatory: boolean;
            /** @description The newest build, when `update_available`. */
            release: components["schemas"]["Release"] | null;
            /** @description A newer build than the installed one exists in the channel. */
            update_available: boolean;
        };
        /** @description Never a password. `sessions_ended` only when the update changed the password. */
        UpdatedUser: {
            /** @enum {string} */
            appearance: "light" | "dark" | "auto";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** Format: email */
            email: string;
            id: number;
            /** @enum {string} */
            locale: "zh-CN" | "en";
            /** @enum {string} */
            role: "admin" | "developer" | "member";
            /**
             * @description Which of the user's console sessions the password change ended: `others` when the user changed their own password from a console session, which stays signed in; else `all`.
             * @enum {string}
             */
            sessions_ended?: "all" | "others";
            /** @description One of the seed's time zone names, e.g. Etc/UTC. */
            timezone: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            updated_at: string;
            username: string;
        };
        /** @description Never a password. */
        User: {
            /** @enum {string} */
            appearance: "light" | "dark" | "auto";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** Format: email */
            email: string;
            id: number;
            /** @enum {string} */
            locale: "zh-CN" | "en";
            /** @enum {string} */
            role: "admin" | "developer" | "member";
            /** @description One of the seed's time zone names, e.g. Etc/UTC. */
            timezone: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            updated_at: string;
            username: string;
        };
        VersionInfo: {
            /** @description Build timestamp, ISO 8601 */
            build_date: string;
            /** @description Source revision */
            vcs_ref: string;
            /** @description Software version */
            version: string;
        };
        /** @description A channel with releases ("Version list (channel view)"). */
        VersionList: {
            app: components["schemas"]["AppRef"];
            app_name: string;
            /** @description The channel's bundle id rule */
            bundle_id: string;
            channel: components["schemas"]["ChannelSummary"];
            git_url: string | null;
            /** @description The channel id */
            id: number;
            releases: components["schemas"]["Release"][];
            scheme: components["schemas"]["SchemeRef"];
        };
        /** @description Never its secret (answered once, at creation). */
        Webhook: {
            app_id: number;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).
             */
            created_at: string;
            /** @description Event names it receives; empty: every event. */
            events: string[];
            /**
             * @description The body's shape: `generic` (Hangar's signed JSON) or the message a chat platform's incoming webhook posts (docs/events.md, Chat presets).
             * @enum {string}
             */
            format: "generic" | "slack" | "teams" | "discord" | "feishu" | "dingtalk" | "wecom";
            id: number;
            /** Format: uri */
            url: string;
        };
    };
    responses: {
        /** @description Malformed request (body not parseable) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description tus: Upload-Checksum does not match the body; nothing of it was kept */
        ChecksumMismatch: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflicts with existing data (tus: Upload-Offset is not the upload's offset) */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not allowed */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resumable upload expired */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description tus: another request is writing into this upload; try again shortly */
        Locked: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body or file too large */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description tus: send Tus-Resumable: 1.0.0 */
        PreconditionFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Object storage has no room left; nothing of this request was kept. Try again after Retry-After seconds */
        StorageFull: {
            headers: {
                /** @description Seconds to wait */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests with an unknown token from this address (counted by all gateway replicas together); try again after Retry-After seconds */
        TooManyAttempts: {
            headers: {
                /** @description Seconds to wait */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many sign-in attempts for this email or address; try again after Retry-After seconds */
        TooManyRequests: {
            headers: {
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No token, or a token that is not valid */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A service or a dependency (database, storage, events) is unavailable; try again after Retry-After seconds */
        Unavailable: {
            headers: {
                /** @description Seconds to wait */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Invalid parameters; `entry` names the fields */
        Unprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description tus: send the bytes as application/offset+octet-stream */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description The channel's key (its slug) */
        channel_key: string;
        /** @description Page, >= 1 (default 1) */
        page: string;
        /** @description Items per page, 1..100 (default 25) */
        per_page: string;
    };
    requestBodies: never;
    headers: {
        /** @description RFC 8288 first, prev, next, last */
        Link: string;
        /** @description Items in the whole list */
        "X-Total-Count": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listApps: {
        parameters: {
            query?: {
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Apps, without collaborators */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
                "application/x-www-form-urlencoded": {
                    name: string;
                };
                "multipart/form-data": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created; the caller is its admin */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCollaborators: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Collaborators */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collaborator"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    addCollaboratorFromBody: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                    user_id: number | string;
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                    user_id: number | string;
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                    user_id: number | string;
                };
            };
        };
        responses: {
            /** @description Added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collaborator"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCollaborator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description User id */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collaborator */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collaborator"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateCollaborator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description User id */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collaborator"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    addCollaborator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description User id */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    role: "admin" | "developer" | "member";
                };
            };
        };
        responses: {
            /** @description Added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collaborator"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    removeCollaborator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description User id */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listSchemes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Schemes with their channels */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Scheme"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createScheme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
                "application/x-www-form-urlencoded": {
                    name: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
                "multipart/form-data": {
                    name: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Scheme"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listTesterGroups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tester groups */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterGroup"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTesterGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name: string;
                };
                "multipart/form-data": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterGroup"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTesterGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterGroup"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteTesterGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateTesterGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name?: string;
                };
                "multipart/form-data": {
                    /** @description The app's channels the group opens: ids, as an array or comma-separated */
                    channel_ids?: number[] | string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterGroup"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listJoinLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Join links */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JoinLink"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createJoinLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description ISO 8601; absent: never expires */
                    expires_at?: string;
                    /** @description How many may join by it; 0 or absent: no limit */
                    seats?: number | string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description ISO 8601; absent: never expires */
                    expires_at?: string;
                    /** @description How many may join by it; 0 or absent: no limit */
                    seats?: number | string;
                };
                "multipart/form-data": {
                    /** @description ISO 8601; absent: never expires */
                    expires_at?: string;
                    /** @description How many may join by it; 0 or absent: no limit */
                    seats?: number | string;
                };
            };
        };
        responses: {
            /** @description Created: `url` is shown only now */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JoinLink"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteJoinLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
                /** @description Join link id */
                link_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    addTesters: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description E-mail addresses separated by commas, semicolons or new lines, or a CSV export (the column holding them; a header line is skipped); at most 1,000 */
                    emails: string | string[];
                };
                "application/x-www-form-urlencoded": {
                    /** @description E-mail addresses separated by commas, semicolons or new lines, or a CSV export (the column holding them; a header line is skipped); at most 1,000 */
                    emails: string | string[];
                };
                "multipart/form-data": {
                    /** @description E-mail addresses separated by commas, semicolons or new lines, or a CSV export (the column holding them; a header line is skipped); at most 1,000 */
                    emails: string | string[];
                };
            };
        };
        responses: {
            /** @description Added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestersAdded"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    removeTester: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
                /** @description Tester group id */
                group_id: string;
                /** @description Tester id */
                tester_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Webhooks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A JSON array, comma-separated text, or repeated `events[]` fields; empty: every event. */
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    /** @description Generated when empty. */
                    secret?: string;
                    /** Format: uri */
                    url: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description A JSON array, comma-separated text, or repeated `events[]` fields; empty: every event. */
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    /** @description Generated when empty. */
                    secret?: string;
                    /** Format: uri */
                    url: string;
                };
                "multipart/form-data": {
                    /** @description A JSON array, comma-separated text, or repeated `events[]` fields; empty: every event. */
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    /** @description Generated when empty. */
                    secret?: string;
                    /** Format: uri */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created, with its secret this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
                "application/x-www-form-urlencoded": {
                    name: string;
                };
                "multipart/form-data": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    latestReleases: {
        parameters: {
            query: {
                /** @description The build the client has */
                build_version?: string;
                /** @description Only this package id */
                bundle_id?: string;
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
                /** @description The version the client has */
                release_version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel and the newer releases, newest version first */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateCheck: {
        parameters: {
            query: {
                /** @description Installed build version */
                build_version: string;
                /** @description Package id of the installed app */
                bundle_id: string;
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description SHA-256 (64 hex digits) of the installed package; anything else is 422 */
                release_hash?: string;
                /** @description Installed release version */
                release_version: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answer; `ETag` and `Cache-Control: no-cache` (revalidate each time: a 304 costs no database read) */
            200: {
                headers: {
                    "Cache-Control"?: string;
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateCheck"];
                };
            };
            /** @description Not modified: the ETag sent in If-None-Match still names this content */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    uploadRelease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description multipart/form-data; `token` and `channel_key` before the file let the gateway refuse before storing anything. A `token` after the file is taken too (as `curl -F file=@app.apk -F token=…` sends it): the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401). One `file` part only (a second is a 422). Each text field has a byte limit (name, branch, password, versions 255; release_type, source 64; git_commit 128; ci_url 2,048; 422 past it, before the file is stored when the field comes first). Or finish a resumable upload: `upload_id` in place of `file`, in any of the three encodings. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description A leading `origin/` is removed. */
                    branch?: string;
                    /** @description Required for a file of an unknown type. */
                    build_version?: string;
                    /** @description A JSON array of ChangelogEntry, or plain text (one entry per line): any text that is not a JSON array of objects (`2024`, `true`, an object) is plain text. At most 6 KiB. */
                    changelog?: string;
                    /** @description Empty or absent: app, scheme and channel are created. */
                    channel_key?: string;
                    ci_url?: string;
                    /** @description A JSON array of CustomField; entries that are not objects (the fastlane plugin sends `["[]"]` by default) are dropped. At most 4 KiB. */
                    custom_fields?: string;
                    git_commit?: string;
                    /** @description Overrides the parsed app name. */
                    name?: string;
                    /** @description `false` (or 0, no): no tester of the channel's groups is e-mailed of this build; default `true`. */
                    notify?: string;
                    /** @description Sets the channel's visit password; empty clears it. */
                    password?: string;
                    release_type?: string;
                    /** @description Required for a file of an unknown type. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description Default `api`. */
                    source?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description A leading `origin/` is removed. */
                    branch?: string;
                    /** @description Required for a file of an unknown type. */
                    build_version?: string;
                    /** @description A JSON array of ChangelogEntry, or plain text (one entry per line): any text that is not a JSON array of objects (`2024`, `true`, an object) is plain text. At most 6 KiB. */
                    changelog?: string;
                    /** @description Empty or absent: app, scheme and channel are created. */
                    channel_key?: string;
                    ci_url?: string;
                    /** @description A JSON array of CustomField; entries that are not objects (the fastlane plugin sends `["[]"]` by default) are dropped. At most 4 KiB. */
                    custom_fields?: string;
                    git_commit?: string;
                    /** @description Overrides the parsed app name. */
                    name?: string;
                    /** @description `false` (or 0, no): no tester of the channel's groups is e-mailed of this build; default `true`. */
                    notify?: string;
                    /** @description Sets the channel's visit password; empty clears it. */
                    password?: string;
                    release_type?: string;
                    /** @description Required for a file of an unknown type. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description Default `api`. */
                    source?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "multipart/form-data": {
                    /** @description A leading `origin/` is removed. */
                    branch?: string;
                    /** @description Required for a file of an unknown type. */
                    build_version?: string;
                    /** @description A JSON array of ChangelogEntry, or plain text (one entry per line): any text that is not a JSON array of objects (`2024`, `true`, an object) is plain text. At most 6 KiB. */
                    changelog?: string;
                    /** @description Empty or absent: app, scheme and channel are created. */
                    channel_key?: string;
                    ci_url?: string;
                    /** @description A JSON array of CustomField; entries that are not objects (the fastlane plugin sends `["[]"]` by default) are dropped. At most 4 KiB. */
                    custom_fields?: string;
                    file?: string;
                    git_commit?: string;
                    /** @description Overrides the parsed app name. */
                    name?: string;
                    /** @description `false` (or 0, no): no tester of the channel's groups is e-mailed of this build; default `true`. */
                    notify?: string;
                    /** @description Sets the channel's visit password; empty clears it. */
                    password?: string;
                    release_type?: string;
                    /** @description Required for a file of an unknown type. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description Default `api`. */
                    source?: string;
                    /** @description The access token, when not in the header or query (send it before the file). */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id?: string;
                };
            };
        };
        responses: {
            /** @description The release, with its app, scheme and channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": WithRequired<components["schemas"]["Release"], "app" | "scheme" | "channel">;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    versionExists: {
        parameters: {
            query: {
                /** @description Build version */
                build_version?: string;
                /** @description Package id */
                bundle_id: string;
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description Commit */
                git_commit?: string;
                /** @description Release version */
                release_version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The release */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listVersions: {
        parameters: {
            query: {
                /** @description Only builds of this git branch */
                branch?: string;
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description Only builds whose commit starts with this (any case) */
                git_commit?: string;
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
                /** @description Only this release version or its dotted extensions (`1.2` matches `1.2` and `1.2.3`, not `1.20`) */
                release_version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel and a page of its releases */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /** @description Only writes on this app: required unless the caller is a global admin, who then needs the app's admin role */
                app_id?: string;
                /** @description A UTC day, YYYY-MM-DD (default: today, when neither day nor from/to is given) */
                day?: string;
                /** @description First UTC day of a range, YYYY-MM-DD (with to; at most 31 days) */
                from?: string;
                /** @description Only this operationId */
                operation?: string;
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
                /** @description Last UTC day of the range, inclusive */
                to?: string;
                /** @description Only writes by this user */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Entries */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntry"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type?: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name?: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
                "application/x-www-form-urlencoded": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type?: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name?: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
                "multipart/form-data": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type?: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name?: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listChannelTesterDevices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The devices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelTesterDevices"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDebugFiles: {
        parameters: {
            query: {
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
                /** @description Only the file with a slice of this UUID */
                uuid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Debug files */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DebugFile"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDebugFile: {
        parameters: {
            query: {
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
            };
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The debug file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DebugFile"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    replaceDebugFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data, as the upload. Or finish a resumable upload: `upload_id` in place of `file`, in any of the three encodings. */
        requestBody: {
            content: {
                "application/json": {
                    build_version?: string;
                    channel_key: string;
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "application/x-www-form-urlencoded": {
                    build_version?: string;
                    channel_key: string;
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "multipart/form-data": {
                    build_version?: string;
                    channel_key: string;
                    file?: string;
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query (send it before the file). */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DebugFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    deleteDebugFile: {
        parameters: {
            query?: {
                /** @description The channel key (also accepted as a body field) */
                channel_key?: string;
            };
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadDebugFileById: {
        parameters: {
            query: {
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
            };
            header?: never;
            path: {
                /** @description Debug file id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the archive, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the archive */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadDebugFile: {
        parameters: {
            query: {
                /** @description Build version */
                build_version?: string;
                /** @description The channel's key (its slug) */
                channel_key: components["parameters"]["channel_key"];
                /** @description When build_version is omitted */
                order?: "version" | "upload_date";
                /** @description Release version (ignored for iOS) */
                release_version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the archive, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the archive */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    retraceStackTrace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    build_version: string;
                    /** @description The credential: the channel whose mapping is used. */
                    channel_key: string;
                    release_version: string;
                    /** @description The obfuscated trace, as the crash reporter sent it. */
                    stack_trace: string;
                };
                "application/x-www-form-urlencoded": {
                    build_version: string;
                    /** @description The credential: the channel whose mapping is used. */
                    channel_key: string;
                    release_version: string;
                    /** @description The obfuscated trace, as the crash reporter sent it. */
                    stack_trace: string;
                };
                "multipart/form-data": {
                    build_version: string;
                    /** @description The credential: the channel whose mapping is used. */
                    channel_key: string;
                    release_version: string;
                    /** @description The obfuscated trace, as the crash reporter sent it. */
                    stack_trace: string;
                };
            };
        };
        responses: {
            /** @description The trace as ProGuard ReTrace 6.2.2 prints it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retraced"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    uploadDebugFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description multipart/form-data; `token` and `channel_key` before the file are checked before anything is stored. A `token` after the file is taken too: the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401). Or finish a resumable upload: `upload_id` in place of `file`, in any of the three encodings. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    build_version?: string;
                    channel_key: string;
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    build_version?: string;
                    channel_key: string;
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "multipart/form-data": {
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    build_version?: string;
                    channel_key: string;
                    file?: string;
                    /** @description Required for Android; iOS takes it from the dSYM. */
                    release_version?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query (send it before the file). */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id?: string;
                };
            };
        };
        responses: {
            /** @description The debug file (the seed answers 200 here) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DebugFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    createDirectUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required for debug files; else the right to create apps is needed */
                    channel_key?: string;
                    filename?: string;
                    /** @description File size in bytes */
                    length: string;
                    /** @description `package` (default) or `debug_file` */
                    purpose?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Required for debug files; else the right to create apps is needed */
                    channel_key?: string;
                    filename?: string;
                    /** @description File size in bytes */
                    length: string;
                    /** @description `package` (default) or `debug_file` */
                    purpose?: string;
                };
            };
        };
        responses: {
            /** @description The upload and one presigned PUT URL per part */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expires_at: string;
                        part_size: number;
                        parts: {
                            length: number;
                            offset: number;
                            part_number: number;
                            /** Format: uri */
                            url: string;
                        }[];
                        upload_id: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every service and dependency is healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description A service does not answer or a dependency is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The release */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    branch?: string;
                    build_version?: string;
                    changelog?: string;
                    ci_url?: string;
                    custom_fields?: string;
                    git_commit?: string;
                    /** @description true/false: installs of older builds must update to this one. */
                    mandatory?: boolean | string;
                    release_type?: string;
                    release_version?: string;
                };
                "application/x-www-form-urlencoded": {
                    branch?: string;
                    build_version?: string;
                    changelog?: string;
                    ci_url?: string;
                    custom_fields?: string;
                    git_commit?: string;
                    /** @description true/false: installs of older builds must update to this one. */
                    mandatory?: boolean | string;
                    release_type?: string;
                    release_version?: string;
                };
                "multipart/form-data": {
                    branch?: string;
                    build_version?: string;
                    changelog?: string;
                    ci_url?: string;
                    custom_fields?: string;
                    git_commit?: string;
                    /** @description true/false: installs of older builds must update to this one. */
                    mandatory?: boolean | string;
                    release_type?: string;
                    release_version?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadRelease: {
        parameters: {
            query?: {
                /** @description Signed download token from the release page */
                t?: string;
            };
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the package (media type of its format, e.g. application/vnd.android.package-archive, else application/octet-stream), streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the package (media type of its format, e.g. application/vnd.android.package-archive, else application/octet-stream) */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getReleaseIcon: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The icon (PNG), or the default icon (SVG). A stored icon never changes at this URL: ETag and `Cache-Control: immutable` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": unknown;
                    "image/svg+xml": unknown;
                };
            };
            /** @description Not modified: the ETag sent in If-None-Match still names this content */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    getReleaseManifest: {
        parameters: {
            query?: {
                /** @description Signed download token from the release page */
                t?: string;
            };
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The manifest plist */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": unknown;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getReleaseQrCode: {
        parameters: {
            query?: {
                /** @description Pixels, 64..1024 (default 256) */
                size?: string;
            };
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PNG; the same at this URL for as long as the release exists: ETag and `Cache-Control: immutable` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": unknown;
                };
            };
            /** @description Not modified: the ETag sent in If-None-Match still names this content */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    getReleaseStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Totals and days */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleaseStats"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getScheme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The scheme */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Scheme"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateScheme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
                "application/x-www-form-urlencoded": {
                    name?: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
                "multipart/form-data": {
                    name?: string;
                    /** @description true/false (default true) */
                    new_build_callout?: boolean | string;
                    /** @description integer >= 0 (default 0) */
                    retained_builds?: number | string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Scheme"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteScheme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listChannels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                scheme_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Channels */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Scheme id */
                scheme_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
                "application/x-www-form-urlencoded": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
                "multipart/form-data": {
                    bundle_id?: string;
                    /** @enum {string} */
                    device_type: "ios" | "android" | "macos" | "windows" | "linux";
                    /** @description Empty clears it. */
                    git_url?: string;
                    /** @description Installs with an older release version must update; empty clears it. */
                    min_supported_version?: string;
                    name: string;
                    /** @description Sets the visit password; empty clears it. */
                    password?: string;
                    /** @description Random when omitted. */
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions, without their secrets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    password: string;
                };
                "multipart/form-data": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            201: {
                headers: {
                    /** @description `hangar_session=…; Path=/; HttpOnly; SameSite=Lax` */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Session id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCurrentSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    finishSingleSignOn: {
        parameters: {
            query?: {
                /** @description The provider's authorization code */
                code?: string;
                /** @description The provider's refusal */
                error?: string;
                /** @description Its reason */
                error_description?: string;
                /** @description The provider's issuer (RFC 9207) */
                iss?: string;
                /** @description The state of the sign-in started at /api/sessions/oidc/start */
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in: the `hangar_session` cookie is set; on to the console. Started by `hangar login --web`: no cookie, on to `http://127.0.0.1:<cli_port>/callback?code=…` instead */
            303: {
                headers: {
                    Location: string;
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No valid state, or one unknown, expired, already used, or started in another browser */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": unknown;
                };
            };
            /** @description The provider refused, or its answer failed verification (forged or expired ID token, another audience, a replayed nonce) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": unknown;
                };
            };
            /** @description An email the provider has not verified, or of a domain not allowed, or whose Hangar account is bound to another person (subject) at the provider */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": unknown;
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    redeemCliSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description From the redirect to http://127.0.0.1:<cli_port>/callback */
                    code: string;
                    /** @description The token's name (default: hangar login --web) */
                    name?: string;
                    /** @description The secret whose SHA-256 was cli_challenge */
                    verifier: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description From the redirect to http://127.0.0.1:<cli_port>/callback */
                    code: string;
                    /** @description The token's name (default: hangar login --web) */
                    name?: string;
                    /** @description The secret whose SHA-256 was cli_challenge */
                    verifier: string;
                };
                "multipart/form-data": {
                    /** @description From the redirect to http://127.0.0.1:<cli_port>/callback */
                    code: string;
                    /** @description The token's name (default: hangar login --web) */
                    name?: string;
                    /** @description The secret whose SHA-256 was cli_challenge */
                    verifier: string;
                };
            };
        };
        responses: {
            /** @description The token, shown this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    startSingleSignOn: {
        parameters: {
            query?: {
                /** @description `hangar login --web`: base64url SHA-256 of the CLI's verifier (43 characters) */
                cli_challenge?: string;
                /** @description `hangar login --web`: the loopback port the CLI waits on (with cli_challenge); the callback then sends the browser there with a one-time code instead of starting a session */
                cli_port?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint; sets the short-lived HttpOnly `hangar_sso` cookie the callback needs */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSignInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The options */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInOptions"];
                };
            };
        };
    };
    revokeOtherSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtherSessionsEnded"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTeardown: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description multipart/form-data; `token` before the file lets the gateway refuse before storing anything. Or finish a resumable upload: `upload_id` in place of `file`, in any of the three encodings. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query. */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id: string;
                };
                "multipart/form-data": {
                    file?: string;
                    /** @description With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422). */
                    sha256?: string;
                    /** @description The access token, when not in the header or query (send it before the file). */
                    token?: string;
                    /** @description Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made. */
                    upload_id?: string;
                };
            };
        };
        responses: {
            /** @description What its release would show, kept for the uploader until `expires_at` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Teardown"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    getTeardown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Teardown id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The teardown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Teardown"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTesterView: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tester view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterView"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    removeTesterDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    renameTesterDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 60 characters */
                    name: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description At most 60 characters */
                    name: string;
                };
                "multipart/form-data": {
                    /** @description At most 60 characters */
                    name: string;
                };
            };
        };
        responses: {
            /** @description The device */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TesterDevice"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    joinTesterGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    /** @description The join link's `token` */
                    token: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    /** @description The join link's `token` */
                    token: string;
                };
                "multipart/form-data": {
                    email: string;
                    /** @description The join link's `token` */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Accepted: the sign-in link goes by e-mail */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    endTesterSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            503: components["responses"]["Unavailable"];
        };
    };
    requestTesterSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                };
                "multipart/form-data": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["Unavailable"];
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header: {
                /** @description Where a partial's bytes start in the whole file, when its `Upload-Metadata` names its parallel upload (`parallel_upload`, and the file's size in `parallel_size`): its bytes then go straight into the whole file, and the final joins the parts without copying them. Without it a partial is joined by a copy, as is one whose place another upload of the same `parallel_upload` name holds already (name each file's parallel upload uniquely) */
                "Hangar-Partial-Start"?: string;
                /** @description Always `1.0.0` */
                "Tus-Resumable": "1.0.0";
                /** @description `sha256 <base64 digest>` of this request's body */
                "Upload-Checksum"?: string;
                /** @description `partial`, or `final;<url> <url>…` */
                "Upload-Concat"?: string;
                /** @description Size of the whole file in bytes (not on a final concatenation) */
                "Upload-Length"?: string;
                /** @description Comma-separated `key base64(value)` pairs: filename, purpose, channel_key */
                "Upload-Metadata"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/offset+octet-stream": string;
            };
        };
        responses: {
            /** @description Created; `Location` is the upload's URL. With a body (creation-with-upload), `Upload-Offset` says how much of it was kept. */
            201: {
                headers: {
                    Location: string;
                    "Tus-Resumable"?: "1.0.0";
                    "Upload-Expires"?: string;
                    "Upload-Offset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            460: components["responses"]["ChecksumMismatch"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    terminateUpload: {
        parameters: {
            query?: never;
            header: {
                /** @description Always `1.0.0` */
                "Tus-Resumable": "1.0.0";
            };
            path: {
                /** @description The upload, the last segment of its URL */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Terminated */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUploadOffset: {
        parameters: {
            query?: never;
            header: {
                /** @description Always `1.0.0` */
                "Tus-Resumable": "1.0.0";
            };
            path: {
                /** @description The upload, the last segment of its URL */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The offset to resume from */
            200: {
                headers: {
                    "Cache-Control"?: string;
                    "Upload-Length": number;
                    "Upload-Metadata"?: string;
                    "Upload-Offset": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    appendUpload: {
        parameters: {
            query?: never;
            header: {
                /** @description Where a partial's bytes start in the whole file, when its `Upload-Metadata` names its parallel upload (`parallel_upload`, and the file's size in `parallel_size`): its bytes then go straight into the whole file, and the final joins the parts without copying them. Without it a partial is joined by a copy, as is one whose place another upload of the same `parallel_upload` name holds already (name each file's parallel upload uniquely) */
                "Hangar-Partial-Start"?: string;
                /** @description Always `1.0.0` */
                "Tus-Resumable": "1.0.0";
                /** @description `sha256 <base64 digest>` of this request's body */
                "Upload-Checksum"?: string;
                /** @description Where this body starts: the offset HEAD answered */
                "Upload-Offset": string;
            };
            path: {
                /** @description The upload, the last segment of its URL */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/offset+octet-stream": string;
            };
        };
        responses: {
            /** @description Kept; `Upload-Offset` is the new offset */
            204: {
                headers: {
                    "Upload-Offset": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            423: components["responses"]["Locked"];
            429: components["responses"]["TooManyAttempts"];
            460: components["responses"]["ChecksumMismatch"];
            503: components["responses"]["Unavailable"];
            507: components["responses"]["StorageFull"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    patchUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email?: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password?: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email?: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password?: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username?: string;
                };
                "multipart/form-data": {
                    /** @enum {string} */
                    appearance?: "light" | "dark" | "auto";
                    /** Format: email */
                    email?: string;
                    /** @enum {string} */
                    locale?: "zh-CN" | "en";
                    password?: string;
                    /**
                     * @description `user` is stored as `member`.
                     * @enum {string}
                     */
                    role?: "admin" | "developer" | "member" | "user";
                    timezone?: string;
                    username?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, without their values */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Comma-separated app ids the token is limited to; empty: every app of the user. */
                    app_ids?: string;
                    /** @description ISO 8601 date and time after which the token is refused; empty: never. A past or unreadable one is 422. */
                    expires_at?: string;
                    name: string;
                    /** @description Comma-separated, any of read, upload, manage, admin; empty: every right of the user. An unknown scope is 422. */
                    scopes?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Comma-separated app ids the token is limited to; empty: every app of the user. */
                    app_ids?: string;
                    /** @description ISO 8601 date and time after which the token is refused; empty: never. A past or unreadable one is 422. */
                    expires_at?: string;
                    name: string;
                    /** @description Comma-separated, any of read, upload, manage, admin; empty: every right of the user. An unknown scope is 422. */
                    scopes?: string;
                };
                "multipart/form-data": {
                    /** @description Comma-separated app ids the token is limited to; empty: every app of the user. */
                    app_ids?: string;
                    /** @description ISO 8601 date and time after which the token is refused; empty: never. A past or unreadable one is 422. */
                    expires_at?: string;
                    name: string;
                    /** @description Comma-separated, any of read, upload, manage, admin; empty: every right of the user. An unknown scope is 422. */
                    scopes?: string;
                };
            };
        };
        responses: {
            /** @description The token, with its value this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id, or `me` */
                id: string;
                /** @description Token id */
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    /** @description The new password */
                    password: string;
                };
                "application/x-www-form-urlencoded": {
                    current_password: string;
                    /** @description The new password */
                    password: string;
                };
                "multipart/form-data": {
                    current_password: string;
                    /** @description The new password */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordChanged"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    searchUsers: {
        parameters: {
            query: {
                /** @description Email to look for */
                email: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    getApiVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionInfo"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    secret?: string;
                    /** Format: uri */
                    url?: string;
                };
                "application/x-www-form-urlencoded": {
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    secret?: string;
                    /** Format: uri */
                    url?: string;
                };
                "multipart/form-data": {
                    events?: string[] | string;
                    /** @description One of generic, slack, teams, discord, feishu, dingtalk, wecom; left out: generic on create, unchanged on update; anything else: 422 naming format. */
                    format?: string;
                    secret?: string;
                    /** Format: uri */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description Page, >= 1 (default 1) */
                page?: components["parameters"]["page"];
                /** @description Items per page, 1..100 (default 25) */
                per_page?: components["parameters"]["per_page"];
            };
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivery attempts */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    dsymByUuidWithCredentialInPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description `<UUID>.zip` */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    machoSliceUnifiedWithCredentialInPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description debuginfo */
                kind: "debuginfo";
                /** @description The first 2 hex digits of the UUID */
                prefix: string;
                /** @description The other 30 hex digits */
                rest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    dsymByUuidWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `<UUID>.zip` */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    machoSliceUnifiedWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description debuginfo */
                kind: "debuginfo";
                /** @description The first 2 hex digits of the UUID */
                prefix: string;
                /** @description The other 30 hex digits */
                rest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    breakpadWithCredentialInPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An access token or a channel key */
                credential: string;
                /** @description The module's debug file name (`app`, `app.pdb`) */
                module: string;
                /** @description The module id: GUID and age, 33 to 40 hex digits */
                module_id: string;
                /** @description The module name without .pdb/.exe/.dll, then `.sym` */
                sym: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    breakpadWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The module's debug file name (`app`, `app.pdb`) */
                module: string;
                /** @description The module id: GUID and age, 33 to 40 hex digits */
                module_id: string;
                /** @description The module name without .pdb/.exe/.dll, then `.sym` */
                sym: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    channelPage: {
        parameters: {
            query?: {
                /** @description Page number */
                page?: string;
            };
            header?: never;
            path: {
                /** @description Channel key */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The password form (protected channel) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not found page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Too many unknown channel keys from this address */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    unlockChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel key */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description A local path */
                    next?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Unlocked: a signed cookie is set; back to `next` */
            303: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Wrong password: the form again */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not found page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Too many wrong passwords, or unknown channel keys from this address */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    debuginfodWithCredentialInPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description GNU build-id, hex */
                build_id: string;
                /** @description An access token or a channel key, for clients that can only be given a URL */
                credential: string;
                /** @description debuginfo or executable */
                kind: "debuginfo" | "executable";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    debuginfodWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description GNU build-id, hex */
                build_id: string;
                /** @description debuginfo or executable */
                kind: "debuginfo" | "executable";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    releasePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The password form (protected channel) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not found page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            429: components["responses"]["TooManyAttempts"];
        };
    };
    unlockRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Release id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description A local path */
                    next?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Unlocked (or the channel has no password): a signed cookie is set; back to `next` */
            303: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Wrong password: the form again */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not found page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Too many wrong passwords */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    microsoftSymbolsWithCredentialInPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file name again */
                again: string;
                /** @description An access token or a channel key */
                credential: string;
                /** @description The file name as uploaded (`app.pdb`, `app.exe`) */
                file: string;
                /** @description A PDB's GUID (32 hex digits) then its age in hex, or a PE's TimeDateStamp (8 hex digits) then its SizeOfImage in hex */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    microsoftSymbolsWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file name again */
                again: string;
                /** @description The file name as uploaded (`app.pdb`, `app.exe`) */
                file: string;
                /** @description A PDB's GUID (32 hex digits) then its age in hex, or a PE's TimeDateStamp (8 hex digits) then its SizeOfImage in hex */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Redirect to a short-lived storage URL of the file */
            302: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["Unavailable"];
        };
    };
    testerHomePage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The builds, or the sign-in form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The session ended (removed, signed out, expired): the sign-in form */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
        };
    };
    testerDevicesPage: {
        parameters: {
            query?: {
                /** @description The device just registered (a notice asks to name it) */
                registered?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The devices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Not signed in as a tester: the sign-in form */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
        };
    };
    renameDeviceByPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
                "application/x-www-form-urlencoded": {
                    name: string;
                };
                "multipart/form-data": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description To `/tester/devices` */
            303: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not signed in as a tester */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not a name, or not your device: the page again */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            429: components["responses"]["TooManyAttempts"];
        };
    };
    removeDeviceByPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Device id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To `/tester/devices` */
            303: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not signed in as a tester */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Not your device: the page again */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            429: components["responses"]["TooManyAttempts"];
        };
    };
    joinTesterGroupPage: {
        parameters: {
            query: {
                /** @description The join link's secret */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    joinTesterGroupByPage: {
        parameters: {
            query?: {
                /** @description The join link's secret, when the body has none (the page's form posts to the link) */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    token?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    token?: string;
                };
                "multipart/form-data": {
                    email: string;
                    token?: string;
                };
            };
        };
        responses: {
            /** @description Check your e-mail */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The link is unknown, expired or full, or the address is not one: the form again */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    openTesterSignInLink: {
        parameters: {
            query: {
                /** @description A path of this site to open once signed in (a new build's install page); anything else is ignored */
                next?: string;
                /** @description The secret of the e-mailed link */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in: to `next`, else `/tester`, with the cookie */
            303: {
                headers: {
                    Location: string;
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The link was used, expired or never existed: the form to ask for a new one */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
        };
    };
    requestTesterSignInPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                };
                "multipart/form-data": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Check your e-mail */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Not an address: the form again */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    testerSignOutPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To `/tester` */
            303: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    unsubscribePage: {
        parameters: {
            query: {
                /** @description Its unsubscribe key */
                key: string;
                /** @description The tester (membership) id */
                tester: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The confirmation form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    unsubscribe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                    tester: string;
                };
                "application/x-www-form-urlencoded": {
                    key: string;
                    tester: string;
                };
                "multipart/form-data": {
                    key: string;
                    tester: string;
                };
            };
        };
        responses: {
            /** @description Unsubscribed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An unknown link */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    udidPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    udidProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Profile Service payload; CMS-signed when a certificate is configured */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-apple-aspen-config": unknown;
                };
            };
            /** @description Not signed in as a tester: the sign-in form */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyAttempts"];
        };
    };
    registerDevice: {
        parameters: {
            query: {
                /** @description The profile's challenge (signed for the tester's session) */
                t: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/pkcs7-signature": string;
            };
        };
        responses: {
            /** @description Registered: to `/tester/devices?registered=<id>` (iOS opens it in Safari) */
            301: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not a device answer: no CMS SignedData, a signature that does not verify, no UDID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The profile's challenge expired, or the tester's session ended */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description Larger than a device answer */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            429: components["responses"]["TooManyAttempts"];
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionInfo"];
                };
            };
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
