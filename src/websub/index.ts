/**
 * WebSub hub: verified subscriptions to the three topics, durable fan-out of their new content, and a guard that
 * keeps callbacks on public addresses. Framework-free: the HTTP area hands it the form of a request.
 */
export { Hub, type HubObserver, type HubOptions, type HubSettings } from './hub.js'
