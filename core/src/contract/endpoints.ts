// Generated from the contract table (routes.ts) by endpoints.test.ts: do not edit. After adding, removing or
// changing a route, `npx vitest run core/src/contract/endpoints.test.ts -u` writes it again.
// What the API client needs of each route (method, path, answer type) without its zod schemas: the web
// binds its whole API from this, so its entry chunk (the login page) loads neither zod nor any area.
import type { EndpointsOf } from './route.js';
import type { Contract } from './routes.js';

export const endpoints = {
  health: {
    check: { method: 'GET', path: '/api/health' },
  },
  auth: {
    login: { method: 'POST', path: '/api/login' },
    logout: { method: 'POST', path: '/api/logout', responseType: 'none' },
    me: { method: 'GET', path: '/api/me' },
    mySessions: { method: 'GET', path: '/api/me/sessions' },
    changePassword: { method: 'POST', path: '/api/change-password' },
    totpStatus: { method: 'GET', path: '/api/me/totp' },
    totpBegin: { method: 'POST', path: '/api/me/totp' },
    totpConfirm: { method: 'POST', path: '/api/me/totp/confirm' },
    totpDisable: { method: 'POST', path: '/api/me/totp/disable' },
  },
  admin: {
    backup: { method: 'POST', path: '/api/admin/backup', responseType: 'text' },
    listUsers: { method: 'GET', path: '/api/admin/users' },
    createUser: { method: 'POST', path: '/api/admin/users' },
    updateUser: { method: 'PATCH', path: '/api/admin/users/{id}' },
    deleteUser: { method: 'DELETE', path: '/api/admin/users/{id}', responseType: 'none' },
    resetUserTotp: { method: 'DELETE', path: '/api/admin/users/{id}/totp', responseType: 'none' },
    userSessions: { method: 'GET', path: '/api/admin/users/{id}/sessions' },
    endUserSessions: { method: 'DELETE', path: '/api/admin/users/{id}/sessions' },
    endUserSession: { method: 'DELETE', path: '/api/admin/users/{id}/sessions/{session_id}', responseType: 'none' },
    listTokens: { method: 'GET', path: '/api/admin/publisher-tokens' },
    createToken: { method: 'POST', path: '/api/admin/publisher-tokens' },
    renewToken: { method: 'POST', path: '/api/admin/publisher-tokens/renew' },
    updateToken: { method: 'PATCH', path: '/api/admin/publisher-tokens/{id}' },
    deleteToken: { method: 'DELETE', path: '/api/admin/publisher-tokens/{id}', responseType: 'none' },
  },
  dashboard: {
    rawOptions: { method: 'GET', path: '/api/dashboard/raw-options' },
    overview: { method: 'GET', path: '/api/dashboard/overview' },
    aggregated: { method: 'GET', path: '/api/dashboard/table/aggregated' },
    deltas: { method: 'GET', path: '/api/dashboard/deltas/daily' },
    comparison: { method: 'GET', path: '/api/dashboard/comparison' },
    top: { method: 'GET', path: '/api/dashboard/top' },
  },
  adReport: {
    zoneDetails: { method: 'GET', path: '/api/ad-report/zone-details' },
    publisherSummary: { method: 'GET', path: '/api/ad-report/publisher-summary' },
    advertiserSummary: { method: 'GET', path: '/api/ad-report/advertiser-summary' },
    explorer: { method: 'GET', path: '/api/ad-report' },
    revenueCards: { method: 'GET', path: '/api/ad-report/revenue-cards' },
  },
  demand: {
    advertiserRevenue: { method: 'GET', path: '/api/demand/advertiser-revenue' },
  },
  finance: {
    advertisers: { method: 'GET', path: '/api/finance/advertisers' },
    publishers: { method: 'GET', path: '/api/finance/publishers' },
    margin: { method: 'GET', path: '/api/finance/margin' },
    domains: { method: 'GET', path: '/api/dev1/dashboard/filters' },
  },
  publisher: {
    data: { method: 'GET', path: '/api/publisher/data' },
  },
  ingest: {
    zoneReport: { method: 'POST', path: '/api/ingest/zone-report' },
  },
  publishers: {
    list: { method: 'GET', path: '/api/admin/publishers' },
    set: { method: 'PUT', path: '/api/admin/publishers' },
  },
  campaigns: {
    imageSuggestions: { method: 'GET', path: '/api/pixabay/' },
    generateCopy: { method: 'GET', path: '/api/generate-copy/' },
    create: { method: 'POST', path: '/api/create-campaign/' },
    budgetLimits: { method: 'GET', path: '/api/campaigns/budget-limits' },
    insights: { method: 'GET', path: '/api/facebook-campaigns/insights' },
    list: { method: 'GET', path: '/api/campaigns' },
  },
  referrers: {
    report: { method: 'POST', path: '/api/referrers/' },
    comparison: { method: 'POST', path: '/api/referrers/comparison' },
    logs: { method: 'POST', path: '/api/referrers_logs/' },
    filters: { method: 'GET', path: '/api/referrers/filters' },
    stream: { method: 'GET', path: '/api/referrers_logs/stream', responseType: 'text' },
    hit: { method: 'GET', path: '/api/hit', responseType: 'none' },
    ingest: { method: 'POST', path: '/api/ingest/referrers' },
    ivt: { method: 'POST', path: '/api/referrers/ivt' },
    spamList: { method: 'GET', path: '/api/admin/referrer-spam' },
    updateSpamList: { method: 'POST', path: '/api/admin/referrer-spam' },
  },
  audit: {
    list: { method: 'GET', path: '/api/admin/audit' },
  },
  profit: {
    table: { method: 'POST', path: '/api/profit' },
    syncSpend: { method: 'POST', path: '/api/admin/spend/sync' },
    rates: { method: 'GET', path: '/api/rates' },
    setRates: { method: 'PUT', path: '/api/admin/rates' },
  },
  alerts: {
    list: { method: 'GET', path: '/api/alerts' },
    unread: { method: 'GET', path: '/api/alerts/unread' },
    markRead: { method: 'POST', path: '/api/alerts/read' },
    mute: { method: 'POST', path: '/api/alerts/{id}/mute' },
    unmute: { method: 'DELETE', path: '/api/alerts/{id}/mute' },
    rules: { method: 'GET', path: '/api/alerts/rules' },
    createRule: { method: 'POST', path: '/api/alerts/rules' },
    updateRule: { method: 'PATCH', path: '/api/alerts/rules/{id}' },
    deleteRule: { method: 'DELETE', path: '/api/alerts/rules/{id}', responseType: 'none' },
    subscription: { method: 'GET', path: '/api/alerts/subscription' },
    setSubscription: { method: 'PUT', path: '/api/alerts/subscription' },
    stream: { method: 'GET', path: '/api/alerts/stream', responseType: 'text' },
    actions: { method: 'GET', path: '/api/alerts/actions' },
    undoAction: { method: 'POST', path: '/api/alerts/actions/{id}/undo' },
    evaluate: { method: 'POST', path: '/api/admin/alerts/evaluate' },
    evaluations: { method: 'GET', path: '/api/alerts/rules/{id}/evaluations' },
    backtestRule: { method: 'POST', path: '/api/alerts/rules/{id}/backtest' },
    backtest: { method: 'POST', path: '/api/alerts/backtest' },
  },
} as const satisfies EndpointsOf<Contract>;
