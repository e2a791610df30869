import type { Request, Response } from 'express';
import type { ServiceClients } from '../../clients/service-clients';
import { Type } from '@sinclair/typebox';
import { isDomainError, Unavailable } from '@hangar/errors';
import { publicBaseUrl } from '../../http/base-url';
import { queryText } from '../../http/input';
import { messagePage } from '../../install/pages';
import { sendInstallPage } from '../../install/page-headers';
import { NO_TOKEN, TESTER_COOKIE, htmlPage, query } from '../../openapi/openapi-parts';
import { idParam, operation } from '../../operations/declare';
import { readAnswerBody, sessionOfChallenge, signChallenge, type DeviceEnrolment } from './device-enrolment';
import { readDeviceAnswer } from './device-answer';
import { devicesPage, udidPage } from './device-pages';
import { udidProfile } from './udid-profile';
import { readTesterCookie, testerOf } from '../testers/tester-session';
import { testerSignInPage } from '../testers/tester-pages';
import { testerView } from '../testers/tester-view';

const TAG = 'Testers';
const device = { id: idParam('Device id') };

function enrolmentOf(devices: DeviceEnrolment | undefined): DeviceEnrolment {
  if (!devices) throw new Unavailable('Device registration is not set up on this gateway');
  return devices;
}

/** A refusal the tester can act on is the devices page saying so; an outage stays the error handler's. */
async function refusedOnDevicesPage(res: Response, render: (problem: string) => Promise<string>, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (isDomainError(err) && err.code !== 'unavailable' && err.code !== 'internal' && err.code !== 'unauthenticated') return sendInstallPage(res, 422, await render(err.message));
    throw err;
  }
}

const SIGNED_OUT = () => testerSignInPage('Sign in as a tester first: enter your address for a sign-in link.');

/**
 * Registering an iOS device (Apple's Over-the-Air Profile Delivery, phase 1): the signed-in tester
 * downloads a profile-service profile whose challenge names their session; iOS posts the device's
 * signed attributes to `/udid/register`, which checks them, stores the device under the tester
 * and redirects Safari to their devices page.
 */
export const devicePageOperations = [
  operation({
    method: 'get',
    path: '/udid',
    operationId: 'udidPage',
    tag: TAG,
    summary: 'Register an iPhone or iPad: what the profile does, and its download (a tester session is needed)',
    scopes: null,
    params: {},
    page: true,
    responses: { '200': htmlPage('The page') },
    openApi: { security: NO_TOKEN },
    async handle({ clients, req, res }) {
      sendInstallPage(res, 200, udidPage((await testerOf(clients, req)) !== undefined));
    },
  }),
  operation({
    method: 'get',
    path: '/udid/profile.mobileconfig',
    operationId: 'udidProfile',
    tag: TAG,
    summary: "The profile that makes the device send its UDID, model and iOS version (signed when UDID_PROFILE_CERT is set)",
    scopes: null,
    params: {},
    page: true,
    responses: {
      '200': { description: 'A Profile Service payload; CMS-signed when a certificate is configured', content: { 'application/x-apple-aspen-config': {} } },
      '401': htmlPage('Not signed in as a tester: the sign-in form'),
    },
    openApi: { security: TESTER_COOKIE },
    async handle({ clients, devices, publicBaseUrl: configured, req, res }) {
      const enrolment = enrolmentOf(devices);
      const tester = await testerOf(clients, req);
      if (!tester) return sendInstallPage(res, 401, SIGNED_OUT());
      const challenge = signChallenge(enrolment, tester.sessionId);
      const registerUrl = `${publicBaseUrl(req, configured)}/udid/register?t=${encodeURIComponent(challenge)}`;
      const profile = udidProfile(registerUrl, challenge, enrolment.organisation);
      const body = enrolment.profileSigner ? await enrolment.profileSigner.sign(profile) : profile;
      res.status(200).type('application/x-apple-aspen-config').setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Disposition', 'attachment; filename="register-device.mobileconfig"');
      res.send(body);
    },
  }),
  operation({
    method: 'post',
    path: '/udid/register',
    operationId: 'registerDevice',
    tag: TAG,
    summary: "Where the device posts its signed attributes: stored under the tester the profile's challenge names, then Safari opens the devices page",
    scopes: null,
    params: {},
    page: true,
    responses: {
      '301': { description: 'Registered: to `/tester/devices?registered=<id>` (iOS opens it in Safari)', headers: { Location: { required: true, schema: { type: 'string' } } } },
      '400': htmlPage('Not a device answer: no CMS SignedData, a signature that does not verify, no UDID'),
      '401': htmlPage("The profile's challenge expired, or the tester's session ended"),
      '413': htmlPage('Larger than a device answer'),
    },
    openApi: {
      security: NO_TOKEN,
      parameters: [query('t', "The profile's challenge (signed for the tester's session)", true)],
      requestBody: { required: true, content: { 'application/pkcs7-signature': { schema: { type: 'string', format: 'binary' } } } },
    },
    async handle({ clients, devices, req, res }) {
      const enrolment = enrolmentOf(devices);
      try {
        const challenge = queryText(req, 't');
        const sessionId = sessionOfChallenge(enrolment, challenge);
        const answer = await readDeviceAnswer(await readAnswerBody(req));
        // The device echoes the challenge it was given: one from another profile is not this one's answer.
        if (answer.challenge && answer.challenge !== challenge) sessionOfChallenge(enrolment, undefined);
        const registered = await clients.apps.registerTesterDevice({ sessionId, udid: answer.udid, product: answer.product, osVersion: answer.osVersion, name: answer.deviceName });
        // 301, as the profile service expects: iOS opens the Location in Safari, where the tester's cookie is.
        res.redirect(301, `/tester/devices?registered=${registered.id}`);
      } catch (err) {
        // iOS shows its own "profile installation failed"; the status and page are for whoever else posts here.
        if (!isDomainError(err) || err.code === 'unavailable' || err.code === 'internal') throw err;
        const status = err.code === 'unauthenticated' ? 401 : err.code === 'payload_too_large' ? 413 : 400;
        sendInstallPage(res, status, messagePage('Device not registered', err.message));
      }
    },
  }),
  operation({
    method: 'get',
    path: '/tester/devices',
    operationId: 'testerDevicesPage',
    tag: TAG,
    summary: "The signed-in tester's devices: each one's name, model and UDID, and which of their newest ad hoc builds install on it",
    scopes: null,
    params: {},
    page: true,
    responses: { '200': htmlPage('The devices'), '401': htmlPage('Not signed in as a tester: the sign-in form') },
    openApi: { security: TESTER_COOKIE, parameters: [query('registered', 'The device just registered (a notice asks to name it)')] },
    async handle({ clients, req, res }) {
      const tester = await testerOf(clients, req);
      if (!tester) return sendInstallPage(res, 401, SIGNED_OUT());
      const registered = Number(queryText(req, 'registered') ?? 0);
      sendInstallPage(res, 200, devicesPage(await testerView(clients, tester), Number.isSafeInteger(registered) ? registered : 0));
    },
  }),
  operation({
    method: 'post',
    path: '/tester/devices/{id}/name',
    operationId: 'renameDeviceByPage',
    tag: TAG,
    summary: 'Name a device (the form of the devices page)',
    scopes: null,
    params: device,
    page: true,
    body: { fields: { name: Type.String() }, required: ['name'] },
    responses: { '303': { description: 'To `/tester/devices`', headers: { Location: { required: true, schema: { type: 'string' } } } }, '401': htmlPage('Not signed in as a tester'), '422': htmlPage('Not a name, or not your device: the page again') },
    openApi: { security: TESTER_COOKIE },
    handle: ({ body, clients, params, req, res }) =>
      devicePageWrite(clients, req, res, () => clients.apps.renameTesterDevice({ secret: readTesterCookie(req) ?? '', deviceId: params.id, name: body.name ?? '' })),
  }),
  operation({
    method: 'post',
    path: '/tester/devices/{id}/remove',
    operationId: 'removeDeviceByPage',
    tag: TAG,
    summary: 'Remove a device (the form of the devices page)',
    scopes: null,
    params: device,
    page: true,
    responses: { '303': { description: 'To `/tester/devices`', headers: { Location: { required: true, schema: { type: 'string' } } } }, '401': htmlPage('Not signed in as a tester'), '422': htmlPage('Not your device: the page again') },
    openApi: { security: TESTER_COOKIE },
    handle: ({ clients, params, req, res }) => devicePageWrite(clients, req, res, () => clients.apps.removeTesterDevice({ secret: readTesterCookie(req) ?? '', deviceId: params.id })),
  }),
];

/** A form of the devices page: the write, then the page again (a refusal shown on it). */
async function devicePageWrite(clients: ServiceClients, req: Request, res: Response, write: () => Promise<unknown>): Promise<void> {
  const tester = await testerOf(clients, req);
  if (!tester) return sendInstallPage(res, 401, SIGNED_OUT());
  await refusedOnDevicesPage(res, async (problem) => devicesPage(await testerView(clients, tester), 0, problem), async () => {
    await write();
    res.redirect(303, '/tester/devices');
  });
}
