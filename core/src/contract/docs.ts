// What each route of the contract does, in Spanish, for the API document (/api/openapi.json)
// that publishers, ad-tag integrators and ingest clients read. Typed against the contract, so
// a route added without its description does not compile.
import type { Contract } from './routes.js';
import { PUBLISHER_DATA_SORT_KEYS } from './reports.js';

export interface RouteDoc {
  /** One short sentence: what the route does. */
  summary: string;
  /** Details a caller needs: formats, limits, what an error means. */
  description?: string;
  /** What a path or query parameter means on this route, where it differs from PARAMETER_DOCS. */
  params?: Record<string, string>;
}

/**
 * What each path/query parameter (and JSON body field) of the contract means, by name: the
 * names are the same on every route. A route's `params` override one where it means more.
 */
export const PARAMETER_DOCS: Record<string, string> = {
  start_date: 'Primer día del rango, `AAAA-MM-DD` (zona horaria de los informes). Rango de 800 días como máximo (Finance: 3660).',
  end_date: 'Último día del rango, `AAAA-MM-DD`, incluido.',
  zone_id: 'Parte del id de zona, sin distinguir mayúsculas. `Todos` o vacío: sin filtro.',
  advertiser: 'Advertiser. `Todos` o vacío: sin filtro.',
  publisher: 'Publisher. `Todos` o vacío: sin filtro.',
  geo: 'País (geo). `Todos` o vacío: sin filtro.',
  source: 'Source. `Todos` o vacío: sin filtro.',
  domain: 'Dominio. `Todos` o vacío: sin filtro.',
  sort: 'Orden: `clave` o `clave:asc|desc` sobre una columna de la tabla; vacío: el orden por defecto de la tabla.',
  page: 'Página, desde 1; una página más allá de la última responde la última.',
  page_size: 'Filas por página (hasta 500).',
  format:
    '`json`: una página (importes con 4 decimales como máximo); `csv` (con BOM, las columnas de la pantalla) o `ndjson`: todas las filas que cumplen los filtros, en streaming, con los importes a su precisión guardada (la suma de una columna es el total al céntimo) y los ratios con los decimales de la pantalla.',
  csv: 'Con `format=csv`: `standard` (por defecto: comas, punto decimal y fechas AAAA-MM-DD, para programas) o `excel-es` (punto y coma, coma decimal y fechas dd/MM/aaaa, para Excel en español).',
  limit: 'Cuántos elementos por lista (1–50; 5 por defecto).',
  token: 'Token del publisher (Usuarios → API Tokens).',
  from_date: 'Primer día del rango, `AAAA-MM-DD`.',
  to_date: 'Último día del rango, `AAAA-MM-DD`, incluido (800 días como máximo).',
  status: 'Estado de las campañas: `ACTIVE` (por defecto), `PAUSED` o `ALL` (también `Activas`, `Pausadas`, `Todas`).',
  keyword: 'Palabra clave (más de 2 caracteres).',
  zoneId: 'Parte del id de zona, sin distinguir mayúsculas.',
  parentDomain: 'Source: el dominio padre exacto. `Todos` o vacío: sin filtro.',
  startDate: 'Desde: ISO 8601 con zona (`…Z`, `…+01:00`), hora local de la zona de los informes, o un día `AAAA-MM-DD` (su comienzo). Sin él: hoy.',
  endDate: 'Hasta: como `startDate`; un día `AAAA-MM-DD` cuenta hasta su final. Sin él: hoy.',
  include_bots: 'Incluye también el tráfico marcado como bots o spam (`is_bot`, `reason`); por defecto se deja fuera.',
  by: 'Agrupación: `zone` (por zona) o `publisher`.',
  add: 'Dominios que añadir.',
  remove: 'Dominios que quitar.',
  user_agent: 'El User-Agent del visitante (no se guarda: un bot conocido marca el evento).',
  before_id: 'Fija las páginas en los eventos hasta este id (el `latest_id` de la primera página), para que los nuevos no las desplacen.',
  lastEventId: 'Reanuda tras este id de evento (alternativa a la cabecera `Last-Event-ID`).',
  access_token: 'El token de sesión (EventSource no puede enviar la cabecera `Authorization`).',
  id: 'Id del usuario.',
  session_id: 'Id de la sesión (de la lista de sesiones del usuario).',
  email: 'Email (sin distinguir mayúsculas).',
  password: 'Contraseña.',
  current_password: 'La contraseña actual.',
  device_token:
    'Token de dispositivo conocido que devolvió un inicio de sesión anterior en esta cuenta (terminales y scripts; el navegador lo guarda en una cookie). Enviado, aunque vacío, pide el de este dispositivo en la respuesta.',
  totp: 'Segundo factor de un usuario con la verificación en dos pasos activada: el código de 6 dígitos de su app o un código de recuperación sin usar.',
  code: 'El código de 6 dígitos que muestra la app de autenticación.',
  new_password: 'La contraseña nueva (8–256 caracteres).',
  first_name: 'Nombre.',
  last_name: 'Apellidos.',
  is_admin: 'Administrador: gestiona usuarios, tokens y revenue share.',
  publisher_name: 'Nombre del publisher.',
  name: 'Nombre del publisher.',
  revenue_share: 'Parte del revenue para el publisher, de 0 a 2 (0.7 = 70 %).',
  expires_at:
    'Caducidad del token: un día `AAAA-MM-DD` (deja de valer al empezar ese día en la zona horaria de los informes) o un instante ISO 8601 con zona; `null`: no caduca.',
  allowed_ips: 'Direcciones IP y rangos CIDR (IPv4 o IPv6) desde los que vale el token, hasta 100; vacía: desde cualquiera.',
  rate_limit: 'Peticiones por hora que admite el token (1–1 000 000); `null`: el límite por defecto del servidor.',
};

export type ContractDocs = { [Area in keyof Contract]: { [Name in keyof Contract[Area]]: RouteDoc } };

/** The document's section (tag) of each area. */
export const AREA_TAGS: { [Area in keyof Contract]: string } = {
  health: 'Estado',
  auth: 'Sesión',
  admin: 'Administración',
  dashboard: 'Dashboard',
  adReport: 'Ad Report y Api Explorer',
  demand: 'Demand',
  finance: 'Finance',
  publisher: 'Publishers (URL con token)',
  ingest: 'Ingesta',
  publishers: 'Revenue share',
  campaigns: 'Campañas (Meta)',
  referrers: 'Referrers',
  audit: 'Auditoría',
  profit: 'Rentabilidad (Media Buying)',
  alerts: 'Alertas',
};

const TABLE =
  'Tabla paginada en el servidor: `sort` (`clave:asc|desc`), `page`, `page_size` (hasta 500); la respuesta trae `rows`, `total_rows`, `page`, `page_count` y `totals` de todas las filas que cumplen los filtros. Con `format=csv` o `format=ndjson` devuelve todas las filas en streaming.';

export const ROUTE_DOCS: ContractDocs = {
  health: {
    check: {
      summary: 'Estado del servidor',
      description:
        'Versión, hora y zona horaria de los informes (las fechas son días de esa zona), y el bus en vivo (`live`: `memory` o `redis`, y si responde). Público.',
    },
  },
  auth: {
    login: {
      summary: 'Inicia sesión',
      description:
        'Devuelve un token de sesión (JWT) para la cabecera `Authorization: Bearer`. Con la verificación en dos pasos activada, una contraseña correcta sin `totp` (o con un código equivocado o ya usado) responde 401 con `totp_required: true`; un código equivocado cuenta como un intento fallido. Cada intento se cuenta antes de comprobar la contraseña y se limita por dirección y email (5), por cuenta desde dispositivos desconocidos (10) y por dirección en todas las cuentas (30), cada 15 minutos: 429 con `Retry-After`. Un dispositivo que ya entró en la cuenta (la cookie `adops_device` del navegador, o `device_token` en el cuerpo) solo cuenta sus propios fallos (5), así que los intentos de otros no le cierran el paso, y espera turno para verificar la contraseña antes que los desconocidos. Con demasiadas verificaciones en cola, 503 con `Retry-After` al instante (y cuenta como intento).',
    },
    logout: {
      summary: 'Cierra la sesión',
      description: 'El token deja de valer en el acto, en todas las instancias; sus flujos en vivo se cierran en segundos.',
    },
    me: { summary: 'Usuario de la sesión', description: 'Email, nombre, si es administrador y cuándo expira la sesión.' },
    mySessions: {
      summary: 'Mis sesiones abiertas',
      description: 'Inicio, expiración, último uso (al minuto), IP y navegador de cada sesión; `current` marca la de este token.',
    },
    changePassword: {
      summary: 'Cambia la contraseña',
      description:
        'Pide la actual (una equivocada cuenta como un inicio de sesión fallido, con los mismos límites); devuelve un token nuevo. Todas las demás sesiones del usuario, y la de este token, terminan.',
    },
    totpStatus: {
      summary: 'Estado de mi verificación en dos pasos',
      description:
        'Si está activada (o a la espera del primer código), cuántos códigos de recuperación quedan y si el servidor la exige a este usuario (`ADOPS_REQUIRE_2FA`).',
    },
    totpBegin: {
      summary: 'Empieza a configurar la verificación en dos pasos',
      description:
        'Pide la contraseña actual (una equivocada cuenta como un intento fallido). Genera un secreto TOTP (RFC 6238: SHA-1, 6 dígitos, 30 s) y su URL `otpauth://` para la app de autenticación. No se activa hasta confirmarlo con un código; 409 si ya está activada.',
    },
    totpConfirm: {
      summary: 'Activa la verificación en dos pasos',
      description:
        'Con el primer código de la app la activa, cierra las demás sesiones del usuario y devuelve 10 códigos de recuperación de un solo uso (solo se muestran ahora). Desde entonces `POST /api/login` sin `totp` responde 401 con `totp_required: true`.',
    },
    totpDisable: {
      summary: 'Desactiva la verificación en dos pasos',
      description:
        'Pide la contraseña actual (una equivocada cuenta como un inicio de sesión fallido, con los mismos límites). 409 si no estaba activada.',
    },
  },
  admin: {
    backup: {
      summary: 'Copia de seguridad del almacenamiento integrado',
      description:
        'Un archivo tar (`application/x-tar`) con el almacén de entidades, el almacén de datos (DuckDB exportado a parquet) y los demás archivos del directorio de datos, tomados en un mismo instante mientras el servidor sigue atendiendo; `manifest.json` (el primero) lista cada archivo con su SHA-256 y cuenta las filas y sumas de cada tabla. Lo guarda y comprueba `adops backup DIR`; lo restaura `adops restore DIR`. Una a la vez (409 si hay otra en curso); con PostgreSQL o ClickHouse responde 409: usa pg_dump y clickhouse-backup. Pide de nuevo la contraseña del administrador (`password`; con la verificación en dos pasos, también `code`: sin él responde 400 con `totp_required: true`; los fallos cuentan como los de inicio de sesión) y una frase de paso (`passphrase`, 12 caracteres o más) con la que se cifran (scrypt + AES-256-GCM) el almacén de entidades y los archivos del directorio de datos (claves de secrets.json, semillas TOTP, tokens sellados, hashes de contraseñas, registro de auditoría): restaurar la copia la necesita. El manifiesto (`format_version` 2, `encryption`) dice cómo.',
      params: {
        password: 'La contraseña del administrador, otra vez.',
        code: 'El código de la app de verificación (o uno de recuperación), si la cuenta tiene la verificación en dos pasos.',
        passphrase: 'La frase de paso que cifra los secretos de la copia (al menos 12 caracteres); hará falta para restaurarla.',
      },
    },
    listUsers: { summary: 'Lista los usuarios', description: '`two_factor` dice si el usuario tiene activada la verificación en dos pasos.' },
    createUser: { summary: 'Crea un usuario', description: 'El email es único sin distinguir mayúsculas (409 si ya existe).' },
    updateUser: { summary: 'Modifica un usuario', description: 'Los campos vacíos no se cambian.' },
    deleteUser: { summary: 'Elimina un usuario', description: 'El administrador protegido no se puede eliminar. Sus sesiones terminan.' },
    resetUserTotp: {
      summary: 'Desactiva la verificación en dos pasos de un usuario',
      description:
        'Para quien perdió el teléfono y los códigos de recuperación: desde ese momento entra solo con su contraseña y puede volver a activarla en «Cambiar contraseña». 404 si el usuario no existe; 409 si no la tiene activada. Queda en la auditoría (`user.2fa_reset`). La del administrador protegido solo la cambia él mismo (403 para los demás).',
    },
    userSessions: { summary: 'Sesiones abiertas de un usuario', description: 'Inicio, expiración, último uso (al minuto), IP y navegador.' },
    endUserSessions: {
      summary: 'Cierra todas las sesiones de un usuario',
      description:
        'Sus tokens dejan de valer en el acto; responde cuántas se cerraron. Las del administrador protegido solo las cierra él mismo (403 para los demás).',
    },
    endUserSession: {
      summary: 'Cierra una sesión de un usuario',
      description: '404 si el usuario no tiene esa sesión; 403 si es del administrador protegido y no la cierra él mismo.',
    },
    listTokens: { summary: 'Lista los tokens de publishers' },
    createToken: {
      summary: 'Crea el token de un publisher',
      description:
        'Un token por publisher (409 si ya tiene uno: renuévalo). Opcionales: caducidad (`expires_at`), direcciones permitidas (`allowed_ips`) y límite propio de peticiones por hora (`rate_limit`).',
    },
    renewToken: {
      summary: 'Renueva el token de un publisher',
      description:
        'El token anterior deja de valer; el id, la caducidad, las direcciones permitidas y el límite se conservan; el recuento de peticiones empieza de cero.',
    },
    updateToken: {
      summary: 'Cambia la caducidad, las direcciones o el límite de un token',
      description: 'Los campos que no se envían no cambian; `null` quita la caducidad o el límite propio. El token no cambia.',
      params: { id: 'Id del token (de la lista de tokens).' },
    },
    deleteToken: {
      summary: 'Revoca un token de publisher',
      description: 'Por su id, nunca por el token: un token en la ruta responde 410 y no se elimina.',
      params: { id: 'Id del token (de la lista de tokens).' },
    },
  },
  dashboard: {
    rawOptions: { summary: 'Opciones de filtro', description: 'Advertisers, publishers, geos y sources conocidos.' },
    overview: {
      summary: 'Tarjetas del Dashboard',
      description: 'Revenue, margin, impresiones, clicks, CTR y TQ del rango con sus filtros, y la tendencia por día.',
    },
    aggregated: {
      summary: "Tabla 'Analytics' del Dashboard",
      description: `Una fila por día con datos (\`format=csv\`: resumen_diario.csv, todos los días). ${TABLE}`,
    },
    deltas: { summary: 'Variación diaria', description: 'Ayer frente a anteayer, en porcentaje, por métrica.' },
    comparison: {
      summary: 'Comparar con el período anterior',
      description:
        'Las tarjetas del rango frente a tantos días justo antes, en el servidor y de igual a igual: un rango ya terminado se compara entero; uno que llega a hoy compara solo sus días completos con el mismo número de días desde el inicio del período anterior (el informe de zonas es diario y el de hoy, parcial); hoy solo no tiene comparación (`basis: none`). `label` y `note` dicen qué se comparó.',
    },
    top: { summary: 'Top Zones y Top Advertisers', description: 'Los que más revenue dieron en el rango, ordenados en el servidor.' },
  },
  adReport: {
    zoneDetails: {
      summary: 'Resumen diario por zona',
      description: `Una fila por día, zona, advertiser, publisher, geo y source, con las opciones de Geo y Source del rango (\`format=csv\`: adreport_zonas.csv, todas las filas). ${TABLE}`,
    },
    publisherSummary: { summary: 'Resumen por publisher', description: `Una fila por día y publisher. ${TABLE}` },
    advertiserSummary: { summary: 'Resumen por advertiser', description: `Una fila por día y advertiser. ${TABLE}` },
    explorer: {
      summary: 'Api Explorer: filas por zona',
      description: `La tabla de zonas con sus columnas (\`format=csv\`: ad_report.csv, todas las filas). ${TABLE}`,
    },
    revenueCards: {
      summary: 'Tarjetas del Api Explorer',
      description: 'Revenue de ayer, hoy y el mes en curso de todo el tráfico, y el del rango con sus filtros.',
    },
  },
  demand: {
    advertiserRevenue: {
      summary: 'Demand: revenue y margin diarios por advertiser',
      description:
        'Un punto por día del rango para cada advertiser (los días sin datos a 0), advertisers por revenue, y los totales de cada uno en el rango (`format=csv`: demand_{inicio}_to_{fin}.csv, una fila por advertiser y día).',
    },
  },
  finance: {
    advertisers: {
      summary: 'Revenue mensual por advertiser',
      description: `Una columna por mes y el total, cada importe exacto (el mismo que Demand y el Ad Report para ese advertiser y mes); la fila TOTAL es el revenue exacto de cada mes. Redondeadas por separado, las filas pueden diferir del total en el último decimal. ${TABLE}`,
    },
    publishers: { summary: 'Revenue mensual por publisher', description: `Misma fila TOTAL que la tabla de advertisers. ${TABLE}` },
    margin: { summary: 'Margen mensual', description: 'Del dominio elegido o del total.' },
    domains: { summary: 'Dominios del filtro de Finance' },
  },
  publisher: {
    data: {
      summary: 'Datos de un publisher (URL con token)',
      description:
        'Las filas propias del publisher (fecha, zona, geo, impresiones, clicks, revenue del publisher), nunca el revenue ni el margen del advertiser. Token en la cabecera `Authorization: Bearer TOKEN` o en `token`; 401 si falta, no existe o caducó; 403 desde una dirección que el token no permite; 429 con `Retry-After` pasado su límite de peticiones por hora. JSON de 500 filas por página; `format=csv|ndjson` devuelve todas.',
      params: {
        token: 'Token del publisher (el de su URL); sin él o si no existe, 401.',
        sort: `Orden de todo el resultado antes de paginar: \`clave\` o \`clave:asc|desc\`, con clave ${PUBLISHER_DATA_SORT_KEYS.join(', ')}. Por defecto: date desc, zone_id, geo.`,
      },
    },
  },
  ingest: {
    zoneReport: {
      summary: 'Importa informes de zona',
      description:
        'CSV con cabecera (`text/csv`), NDJSON (`application/x-ndjson`) o un array JSON (`application/json`), opcionalmente con `Content-Encoding: gzip`; hasta 200 MB (el array JSON, 50 MB). Campos de cada fila: obligatorios `date` (AAAA-MM-DD), `advertiser`, `publisher`, `zone_id`, `impressions`, `clicks`, `revenue`; opcionales `geo`, `source`, `domain`, `monetized_impressions`, `rate_applied` (0–2), `p_revenue`, `margin`, `tq`. Sin `p_revenue` ni `margin` se calculan con el revenue share del publisher. Reimportar la misma clave (día, zona, advertiser, publisher, geo, source) reemplaza la fila; una clave repetida dentro del mismo archivo guarda su última línea, y las repetidas se listan en `duplicates` con la línea donde apareció la clave (hasta 1000; `duplicates_total` las cuenta todas). Las líneas rechazadas (un valor que falta o no vale, un importe o un recuento negativo) se listan con su número (hasta 1000; `rejected_total` las cuenta todas); las demás se guardan. Pero si las cifras de una línea se contradicen (`margin` distinto de `revenue − p_revenue` en más de un céntimo, un `p_revenue` negativo o de más de 2 veces el `revenue`, más `clicks` o `monetized_impressions` que `impressions`, un `tq` fuera de su escala de 0 a 1, un `rate_applied` a más de medio punto de `p_revenue ÷ revenue`) no se guarda nada del archivo: responde 400 con esa línea y la columna en `detail`, y todas las rechazadas en `rejected`. Con la clave de ingesta (`X-Ingest-Key` o `Authorization: Bearer`) o una sesión de administrador. Cada día importado queda con su informe final o parcial (`days`): final si el día ya terminó (ADOPS_TZ), parcial si sigue en curso; `?report=final` o `?report=partial` lo fija (un informe que se sabe incompleto, parcial aunque el día haya terminado). Una importación posterior con el día terminado lo deja final. El revenue de un día parcial se estima con el RPV de los 7 días anteriores con informe final.',
      params: { report: '`final` (informe completo) o `partial` (incompleto); sin él, según si el día ya terminó.' },
    },
  },
  publishers: {
    list: {
      summary: 'Revenue share de los publishers',
      description: 'Los configurados y los vistos en los datos (con el valor por defecto), por nombre.',
    },
    set: {
      summary: 'Fija el revenue share de un publisher',
      description: 'Lo crea si es nuevo. Se aplica a las importaciones posteriores que no traen p_revenue ni margin.',
    },
  },
  campaigns: {
    imageSuggestions: {
      summary: 'Imágenes sugeridas para una palabra clave (Pixabay)',
      params: { query: 'Palabra clave (más de 2 caracteres).', page: 'Página de resultados, de 1 a 5.' },
    },
    generateCopy: { summary: 'Texto sugerido para un anuncio', description: 'Titular, cuerpo y llamada a la acción para la palabra clave.' },
    create: {
      summary: 'Crea una campaña de Meta',
      description:
        'Formulario `multipart/form-data` con los campos de la campaña y la imagen. `daily_budget` y `bid_amount` van en la moneda de la cuenta publicitaria, con coma decimal (`1,50`) o punto seguido de 1–2 decimales (`1.50`); `1.500` es ambiguo y se rechaza. Un presupuesto fuera de los límites de `GET /api/campaigns/budget-limits` se rechaza (400) sin llamar a Meta. Si un paso falla en Meta, lo ya creado se deshace.',
    },
    budgetLimits: {
      summary: 'Límites de presupuesto y puja de la cuenta publicitaria',
      description:
        'En la moneda de la cuenta de Meta: el mínimo diario de Meta, el máximo de este servidor (`ADOPS_MAX_DAILY_BUDGET`), el importe a partir del cual las caras piden confirmación y la regla de Meta para la puja (el presupuesto diario, al menos `bid_budget_ratio` veces la puja).',
    },
    insights: { summary: 'Campañas con sus métricas (Meta)', description: TABLE },
    list: { summary: 'Campañas creadas desde la consola', description: 'La más reciente primero.' },
  },
  referrers: {
    ivt: {
      summary: 'Tasa de tráfico inválido (IVT) por zona o publisher',
      description: `Visitas de cada zona (\`by=zone\`) o publisher (\`by=publisher\`) en el rango: todas, las marcadas como bots o spam y su porcentaje (\`ivt_rate\`). ${TABLE}`,
    },
    spamList: {
      summary: 'Lista de spam de referrers',
      description: 'La lista incluida (de Matomo, dominio público) con los dominios que los administradores añadieron o quitaron.',
    },
    updateSpamList: {
      summary: 'Cambia la lista de spam de referrers',
      description:
        '`add`: dominios que se marcan como spam desde ahora (también sus subdominios); `remove`: dominios que dejan de marcarse (uno de la lista incluida queda fuera). Hasta 1000 por cambio. No cambia los eventos ya guardados.',
    },
    report: { summary: 'Referrers del rango', description: `Referrers distintos con sus visitas. ${TABLE}` },
    comparison: {
      summary: 'Visitas frente al período anterior',
      description:
        'Las visitas del filtro frente al período anterior, de igual a igual: un período en curso se compara hasta el minuto actual con el anterior hasta la misma hora del día («hasta las 03:00 frente a ayer a la misma hora»); uno terminado, entero.',
    },
    logs: {
      summary: 'Log de eventos de referrers',
      description: `Eventos en bruto, el más reciente primero; \`before_id\` fija las páginas mientras llegan nuevos. ${TABLE}`,
    },
    filters: { summary: 'Opciones de filtro de Referrers' },
    stream: {
      summary: 'Log de referrers en vivo (server-sent events)',
      description:
        '`text/event-stream`: `id:` el id del evento, `data:` el evento en JSON, un comentario de latido cada 15 s. Se reanuda con la cabecera `Last-Event-ID` o `lastEventId`. Acepta el token de sesión en `access_token` (EventSource no envía cabeceras).',
    },
    hit: {
      summary: 'Beacon de la etiqueta de anuncio',
      description:
        'Público. Registra una visita a una zona; 204, o un GIF de 1×1 con `format=gif`. Cada IP tiene un cupo (cubo de fichas: `ADOPS_BEACON_RATE` por segundo, ráfagas de `ADOPS_BEACON_BURST`); por encima, 429 con `Retry-After`. Las visitas de bots conocidos (user agent), con referrer en la lista de spam, de una IP por encima de `ADOPS_BOT_IP_RATE` por minuto o a zonas que ningún informe nombra se guardan marcadas como tráfico inválido.',
      params: {
        zone_id: 'Id de la zona (obligatorio).',
        ref: 'URL del referrer.',
        kw: 'Palabra clave.',
        cid: 'Id de la campaña de Meta de la visita (la macro `{{campaign.id}}` de la URL de seguimiento; hasta 64 caracteres).',
        asid: 'Id del conjunto de anuncios de Meta (`{{adset.id}}`).',
        adid: 'Id del anuncio de Meta (`{{ad.id}}`).',
        plc: 'Ubicación del anuncio en Meta (`{{placement}}`). Una macro sin sustituir (`{{…}}`) se guarda vacía.',
        src: 'Source: el dominio padre o su URL.',
        format: '`gif`: responde un GIF transparente de 1×1 en lugar de 204.',
        event_id:
          'Clave de la visita que da la etiqueta (hasta 64 caracteres ASCII imprimibles): la misma clave en los últimos 7 días se guarda una sola vez.',
      },
    },
    ingest: {
      summary: 'Importa eventos de referrers por lotes',
      description:
        'NDJSON, un evento `ReferrerEvent` por línea (`application/x-ndjson`, opcionalmente gzip), hasta 16 MB y 100 000 eventos (413 si se pasa). `parent_domain` por defecto es el host del referrer; `seen_at`, la hora de llegada; publisher y advertiser salen de la zona; `ip` debe ser una IPv4/IPv6 válida. El lote se guarda entero o nada: una línea mal formada lo rechaza con 400 `línea N: …`. Reintentar es seguro: un evento con `event_id` (hasta 64 caracteres) ya guardado en los últimos 7 días, en este lote o en otro, no se guarda otra vez, y reenviar un lote con la misma cabecera `Idempotency-Key` (hasta 128 caracteres) no guarda ninguno de sus eventos sin `event_id` de nuevo; la respuesta dice cuántos se guardaron (`accepted`) y cuántos eran duplicados (`duplicates`). Con la clave de ingesta (`X-Ingest-Key` o `Authorization: Bearer`) o una sesión de administrador.',
    },
  },
  profit: {
    table: {
      summary: 'Rentabilidad por campaña, conjunto, anuncio, keyword o día',
      description: `Gasto de Meta (en la moneda de la red, con el tipo de cambio del mes), clics de Meta, visitas humanas atribuidas (\`cid\`), revenue estimado, beneficio, ROI %, ROAS, revenue por visita, CPC, CPC de equilibrio y TQ. Revenue estimado: para cada día y zona, revenue por visita = revenue de la zona ÷ sus visitas ese día; el de un grupo es la suma de ese RPV × sus visitas en cada zona. Los días sin zone report usan el RPV de los 7 días anteriores de la zona y se marcan como estimados (\`estimated_days\`). Sin tipo de cambio para un mes y moneda, el gasto queda sin valor y \`missing_rates\` lo dice. Un día con el informe de zonas parcial (\`partial_days\`) también se estima, así su revenue no baja al llegar visitas. Un día sin el gasto sincronizado (\`unsynced_days\`: ninguna sincronización lo cubrió y no hay gasto guardado) no cuenta como gasto 0: el gasto, el beneficio, el ROI y el ROAS de cada fila son de los días sincronizados y el revenue de los demás va aparte (\`unsynced_revenue\`); si ningún día del rango está sincronizado, o en la fila de ese día, el gasto es \`null\` y \`spend_unsynced\` es true. \`spend_synced_at\` dice cuándo se sincronizó el gasto por última vez y \`spend_stale\` si el rango está desactualizado. ${TABLE}`,
      params: {
        by: 'Agrupación: `campaign` (por defecto), `adset`, `ad`, `keyword` o `day`.',
        campaign_id: 'Solo esta campaña (para desplegar una fila).',
        adset_id: 'Solo este conjunto de anuncios.',
      },
    },
    syncSpend: {
      summary: 'Sincroniza el gasto de Meta',
      description:
        'Lee de Meta el gasto, las impresiones y los clics de cada anuncio y día del rango (por defecto los últimos 7 días) y los guarda; repetirlo no duplica nada, y deja constancia de los días sincronizados (y cuándo) para que Rentabilidad distinga un día sin gasto de uno sin sincronizar. Respeta los límites de llamadas de Meta (reintenta con espera). Solo administradores.',
    },
    rates: {
      summary: 'Tipos de cambio mensuales',
      description: 'Moneda de la red y, por mes y moneda, cuántas unidades de la red vale una unidad de esa moneda.',
    },
    setRates: {
      summary: 'Cambia tipos de cambio mensuales',
      description: 'Fija (o con `rate: null` quita) el tipo de un mes `AAAA-MM` y una moneda ISO de 3 letras. Solo administradores.',
      params: { rates: 'Lista de `{month, currency, rate}`.' },
    },
  },
  alerts: {
    list: {
      summary: 'Alertas disparadas',
      description:
        'Lo que dispararon las reglas, de la más reciente a la más antigua: abiertas, resueltas (la condición dejó de cumplirse) y silenciadas. `totals.unread` es el número de la campana.',
      params: { state: '`open`, `resolved`, `muted` o `all`.', rule_id: 'Solo las de esta regla.' },
    },
    unread: {
      summary: 'Alertas sin leer',
      description: 'Las disparadas desde la última vez que el usuario las marcó como leídas, de las reglas a las que está suscrito en la app.',
    },
    markRead: { summary: 'Marca las alertas como leídas', description: 'La campana vuelve a 0.' },
    mute: {
      summary: 'Silencia una alerta',
      description:
        'Durante `minutes` minutos o, con `null`, hasta que se resuelva. Solo para quien la silencia (deja de verla entre las abiertas, en la campana y en el resumen diario; los demás la siguen viendo). Un administrador puede silenciarla para todos con `for_everyone: true` (un usuario que no lo es recibe 403).',
    },
    unmute: {
      summary: 'Quita el silencio de una alerta',
      description: 'Quita el silencio propio; con `for_everyone=true`, un administrador quita el silencio para todos.',
      params: { for_everyone: '`true`: el silencio para todos (solo administradores).' },
    },
    rules: { summary: 'Reglas de alerta' },
    createRule: {
      summary: 'Crea una regla de alerta',
      description:
        'Tipos: `tq_low` (TQ de una zona o publisher bajo un umbral en las últimas N horas, con impresiones mínimas), `revenue_drop` (revenue de una zona, publisher o advertiser que cae un X % frente a los mismos días de la semana anterior), `referrer_burst` (un host de referrer, o uno nunca visto, con más de N visitas humanas en M minutos), `ip_burst` (una IP con más de N visitas humanas en M minutos) y `campaign_roi` (ROI de una campaña o conjunto bajo X %, o CPC sobre el de equilibrio, en las últimas N horas con un gasto mínimo; solo cuentan los días con el gasto sincronizado y el informe de zonas final, salvo con `use_estimates: true`, que suma también los días con revenue estimado y lo dice en la alerta). Solo administradores: `action` en una regla `campaign_roi` — `mode` `notify` (por defecto: la alerta dice qué pausaría) o `pause` (la pausa en Meta), `cooldown_minutes` entre acciones sobre la misma campaña (también tras un fallo), `daily_cap` de acciones automáticas por cuenta publicitaria y día, y `reactivate` (la reactiva cuando su ROI se recupera).',
    },
    updateRule: {
      summary: 'Modifica una regla de alerta',
      description: 'Solo quien la creó o un administrador; una regla con acción (`action`), solo un administrador.',
    },
    deleteRule: { summary: 'Elimina una regla de alerta', description: 'Solo quien la creó o un administrador. Sus alertas se borran con ella.' },
    subscription: { summary: 'Mis canales de alerta' },
    setSubscription: {
      summary: 'Cambia mis canales de alerta',
      description:
        'App (campana), email (a la dirección del usuario) y webhook (JSON con `text` compatible con Slack, con `&`, `<` y `>` escapados, y `alert` tal cual; firmado con HMAC-SHA-256 en `X-Adops-Signature`; solo administradores; no puede apuntar a este servidor ni a redes privadas, de enlace local o de metadatos —400— salvo lo permitido en ADOPS_WEBHOOK_ALLOW, y no se siguen redirecciones); para todas las reglas o solo `rule_ids`. `digest`: el resumen diario por email (tarjetas de ayer, mayores cambios y alertas abiertas) a la hora ADOPS_DIGEST_HOUR.',
    },
    evaluate: {
      summary: 'Evalúa las reglas ahora',
      description:
        'Lo mismo que hace el servidor cada minuto. Solo administradores. `notified`: avisos entregados a los canales (email, webhook), que se envían en segundo plano; cada resultado queda en el historial de su alerta.',
    },
    actions: {
      summary: 'Acciones de las reglas sobre Meta',
      description:
        'Lo que hicieron las acciones de las reglas de campaña (`pause`, o `resume` al reactivar): regla, campaña o conjunto, por qué, las cifras de ese momento, si falló (con el error de Meta) y quién la deshizo. `totals.today`: acciones automáticas hoy (ADOPS_TZ) en la cuenta publicitaria, frente al límite diario de cada regla.',
      params: { rule_id: 'Solo las de esta regla.' },
    },
    undoAction: {
      summary: 'Deshace una pausa',
      description:
        'Reactiva en Meta la campaña o el conjunto que pausó una regla y lo anota en la auditoría. La regla no vuelve a pausarlo mientras siga abierta esa alerta. 409 si no es una pausa vigente; 502 con el error de Meta (nada cambia). Solo administradores.',
    },
    stream: {
      summary: 'Alertas en vivo',
      description:
        'Flujo SSE: cada alerta que se dispara o se resuelve, en cualquier instancia, como `AlertStreamEvent` (solo las reglas de tus canales si eliges algunas). Se reanuda con Last-Event-ID o `lastEventId`. Lo usa `adops tail --alerts`.',
    },
    evaluations: {
      summary: 'Historial de evaluación de una regla',
      description:
        'Por qué actuó o no: lo que cada evaluación hizo con cada campaña, conjunto, zona, referrer o IP — cifras, umbral, lo que dijo la guarda y el resultado (`fired`, `acted`, `cooldown`, `daily_cap`, `below_min_spend`, `unsynced_spend`, `estimated_revenue`, `recovered`, `not_matched`). Las evaluaciones seguidas que dicen lo mismo son una entrada (`first_at`, `last_at`, `evaluations`). Se guarda 30 días y como máximo 1.000 entradas por regla (las más antiguas se borran); cada evaluación anota 100 sujetos como máximo (primero lo que hizo o retuvo). La última evaluación primero.',
      params: {
        subject: 'Solo este sujeto: id de campaña o conjunto, zona, publisher, advertiser, referrer o IP.',
        since: 'Solo entradas evaluadas desde este día (`AAAA-MM-DD`, UTC) o instante ISO 8601.',
        outcome: 'Solo este resultado.',
      },
    },
    backtestRule: {
      summary: 'Prueba una regla guardada en el pasado',
      description:
        'Repite la regla cada hora de los últimos `days` (7, 14 o 30) días con sus mismas ventanas, mínimos, esperas, límite diario y reactivación, sobre los datos guardados (gasto por anuncio y día, visitas, revenue de zona por día). Nunca llama a Meta. Responde lo que habría hecho (`actions`: alerta, pausa, reanudación, con cuándo, qué, cifras y por qué), el resumen (gasto evitado, revenue perdido, neto, campañas que habría pausado más de una vez en `flapping`), el beneficio diario de esas campañas (`daily`) y en qué difieren los datos de hoy de lo que se sabía entonces (`notes`).',
    },
    backtest: {
      summary: 'Prueba una regla sin guardarla',
      description: 'Como la prueba de una regla guardada, con su tipo, parámetros, espera y acción en el cuerpo: lo que haría antes de guardarla.',
    },
  },
  audit: {
    list: {
      summary: 'Registro de auditoría',
      description: `Cada cambio hecho por un administrador o por el sistema (usuarios, tokens, revenue share, importaciones, campañas, sesiones cerradas): quién (id y email de entonces, \`system\` o \`ingest_key\`), cuándo (UTC), desde qué IP, qué (\`action\`, p. ej. \`user.create\`), sobre qué (\`target_kind\`, \`target_id\`, \`target_label\`) y el antes y el después (sin contraseñas, tokens ni secretos). Del más reciente al más antiguo (\`sort=at:asc\`: al revés). Solo se añade: nada se modifica ni se borra. ${TABLE}`,
      params: {
        actor: 'Quién: id de usuario, `system`, `ingest_key` o parte del email.',
        action: 'Acción (`user.create`) o su prefijo (`user`).',
        target_kind: 'Tipo de objeto: `user`, `session`, `publisher_token`, `publisher`, `zone_report`, `referrers`, `campaign`.',
        target_id: 'Id del objeto.',
        since: 'Desde: un día `AAAA-MM-DD` (UTC) o un instante ISO 8601 con zona.',
        until: 'Hasta: un día `AAAA-MM-DD` (UTC, incluido entero) o un instante ISO 8601 con zona (incluido).',
        q: 'Texto libre: parte del email, la acción, el objeto, la IP o el antes/después.',
      },
    },
  },
};
